"""Running learner code in separate processes. The parent side imports no JAX."""
