"""Helpers for the training script: metrics, the learning-rate schedule, console logging."""
