"""A training check's live chart: `metric` streams points to it (batched, cheap)."""

from __future__ import annotations

from tutor.child.channel import metric

__all__ = ["metric"]
