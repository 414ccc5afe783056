"""Learner progress: the local JSON store, the changes actions make, typed reads over a snapshot.

The owner that CLI and UI call is tutor.progress.state.LearnerState (it also knows the path).
"""

from .snapshot import ExerciseRecord, Prediction, Snapshot
from .store import (
    SCHEMA,
    ProgressError,
    ProgressStore,
    normalize,
    utc_now,
)

__all__ = [
    "SCHEMA",
    "ExerciseRecord",
    "Prediction",
    "ProgressError",
    "ProgressStore",
    "Snapshot",
    "normalize",
    "utc_now",
]
