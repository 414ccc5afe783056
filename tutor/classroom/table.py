"""The grade table written out: CSV (a spreadsheet's) and JSON (a script's), the same rows."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence

from tutor.classroom.grading import COLUMNS, FLAGS, STATUSES, Row

TABLE_FORMAT = "jaxstate-tutor-grade"
TABLE_VERSION = 3  # 3: a row for every exercise of the course; points, roster and honesty columns


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


def wide_csv_text(lines: Sequence[Sequence[str]]) -> str:
    """The gradebook's wide form (tutor.classroom.gradebook.wide), one learner a line."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for line in lines:
        writer.writerow([_cell(v) for v in line])
    return out.getvalue()


def json_text(rows: Sequence[Row], counts: dict[str, int]) -> str:
    doc = {
        "format": TABLE_FORMAT,
        "format_version": TABLE_VERSION,
        "columns": list(COLUMNS),
        "statuses": list(STATUSES),
        "flags": list(FLAGS),
        # status: re-run; first tries: scored again from the export's answers (the answers themselves
        # are the learner's record); claimed: the learner's progress, shown, never believed
        "verifiable": {
            "status": True,
            "claimed": False,
            "quiz_first_try": True,
            "checkpoints_first_try": True,
            # the learner's own record: an edited progress file changes them
            "solution_viewed": False,
            "hints": False,
            "first_passed_at": False,
            "exported_at": False,
        },
        "summary": counts,
        "rows": [row.as_dict() for row in rows],
    }
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
