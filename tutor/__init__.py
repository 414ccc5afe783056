"""jaxstate-tutor: an interactive terminal tutor for managing state in JAX."""

__version__ = "0.1.0"
