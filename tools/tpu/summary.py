"""One line per verdict of a `--json` output (check or verify)."""

import json
import sys

data = json.load(open(sys.argv[1]))
rows = data.get("results", data if isinstance(data, list) else [data])
ok = 0
for r in rows:
    v = r.get("verdict", r)
    msg = v.get("message")
    msg = msg.get("en") if isinstance(msg, dict) else msg
    ok += bool(r.get("ok", v.get("status") == "pass"))
    print(
        r.get("exercise", v.get("exercise", "")),
        r.get("file", ""),
        v.get("status"),
        v.get("kind", ""),
        r.get("duration_s", v.get("duration_s")),
        (msg or "")[:160].replace("\n", " "),
    )
print(f"{ok}/{len(rows)} ok")
