"""Learner progress: the local JSON store and small status helpers."""
from .store import (
    SCHEMA,
    ProgressError,
    ProgressStore,
    exercise_status,
    lesson_status,
    normalize,
    utc_now,
)

__all__ = ["SCHEMA", "ProgressError", "ProgressStore", "exercise_status", "lesson_status", "normalize", "utc_now"]
