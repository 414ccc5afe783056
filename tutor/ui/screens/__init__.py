"""Screens, one per feature: outline, lesson, exercise, quiz, progress, and small dialogs."""
