"""jaxstate-tutor doctor (placeholder doc, replaced below)."""
