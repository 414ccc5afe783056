"""The grade table written out: CSV (a spreadsheet's) and JSON (a script's), the same rows."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence

from tutor.classroom.grading import COLUMNS, FLAG, STATUSES, Row

TABLE_FORMAT = "jaxstate-tutor-grade"
TABLE_VERSION = 1


def _cell(value: str) -> str:
    """A learner's words never become a spreadsheet formula (CSV injection): '=' + - @ get a quote."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def csv_text(rows: Sequence[Row]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        values = row.as_dict()
        writer.writerow([_cell(values[c]) for c in COLUMNS])
    return out.getvalue()


def json_text(rows: Sequence[Row], counts: dict[str, int]) -> str:
    doc = {
        "format": TABLE_FORMAT,
        "format_version": TABLE_VERSION,
        "columns": list(COLUMNS),
        "statuses": list(STATUSES),
        "flag": FLAG,
        # the learner's own record, shown as claimed: nothing re-runs a quiz or a checkpoint
        "verifiable": {"status": True, "claimed": False, "quiz_first_try": False, "checkpoints_first_try": False},
        "summary": counts,
        "rows": [row.as_dict() for row in rows],
    }
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
