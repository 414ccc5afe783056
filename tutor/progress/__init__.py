"""Learner progress: the local JSON store, its typed records, the changes actions make, typed reads.

The owner that CLI and UI call is tutor.progress.state.LearnerState (it also knows the path).
"""

from .records import SCHEMA, ExerciseRecord, Prediction, Progress
from .records import decode as normalize
from .snapshot import Snapshot
from .store import ProgressError, ProgressStore, utc_now

__all__ = [
    "SCHEMA",
    "ExerciseRecord",
    "Prediction",
    "Progress",
    "ProgressError",
    "ProgressStore",
    "Snapshot",
    "normalize",
    "utc_now",
]
