#!/bin/bash
# The fast tier of an older tree and this one, alternated: `OLD=.old bash tools/ab_fast_tier.sh old new old new`
# (.old: `mkdir -p .old && git archive <commit> | tar -x -C .old`). One line a run: wall, CPU, the
# result line, the load before and after. Keep the machine otherwise quiet.
here=$(cd "$(dirname "$0")/.." && pwd)
old=${OLD:-$here/.old}
for run in "$@"; do
  if [ "$run" = old ]; then cd "$old"; else cd "$here"; fi
  before=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "$run %e s wall %U u %S s" -o /tmp/ab.time timeout 900 "$here/.venv/bin/python" -m pytest \
    -m "not slow" -n 4 --dist worksteal -q -p no:randomly > "/tmp/ab.$run.log" 2>&1
  echo "$(cat /tmp/ab.time) | $(tail -1 "/tmp/ab.$run.log") | load $before-$(cut -d' ' -f1 /proc/loadavg)"
done
