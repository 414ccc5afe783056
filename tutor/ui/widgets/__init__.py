"""Widgets shared by screens: runnable cells, check results, the live chart, the editor."""
