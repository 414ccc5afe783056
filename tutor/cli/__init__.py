"""The commands of `jaxstate-tutor`, a module per group; tutor/cli/main.py parses the arguments and picks one."""
