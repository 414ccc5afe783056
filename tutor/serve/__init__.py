"""`jaxstate-tutor serve`: the same tutor in a browser, through textual-serve.

server.py answers HTTP on 127.0.0.1 and starts one app per browser tab (app.py, the hidden entry
that runs the TUI on Textual's web driver); seats.py says which token opens which learner's home;
jupyter.py lets jupyter-server-proxy start it behind a Jupyter login. Nothing here imports JAX:
code runs in the tutor's own workers, as in the terminal.
"""
