"""Teaching a class: a learner's `export` (progress plus the files that passed, one JSON file) and
the instructor's `grade` (every collected file re-judged in a fresh worker, one table).

The grade believes no progress file: what the learner's progress says is shown beside what the
re-run found, and a claimed pass the re-run does not confirm is flagged "forged or stale".
"""
