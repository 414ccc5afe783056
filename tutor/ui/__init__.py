"""The Textual terminal UI. The only package that imports Textual; it never imports JAX."""
