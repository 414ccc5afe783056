#!/bin/bash
# grade 8 exports (2 files each) under each isolation, alternated; prints seconds per run
set -e
WT=$(cd "$(dirname "$0")/.." && pwd)
PY=$WT/.venv/bin/python
B=${1:-/tmp/grade-isolation-bench}
export PYTHONPATH=$WT JAXSTATE_TUTOR_LANG=en
if [ ! -d $B/collected ]; then
  mkdir -p $B/collected
  for i in 1 2 3 4 5 6 7 8; do
    h=$B/l$i; mkdir -p $h/workspace
    cp $WT/solutions/pure-scale.py $WT/solutions/counter-jit.py $h/workspace/
    $PY -m tutor --home $h export --name l$i --out $B/collected/l$i.json >/dev/null
  done
fi
for round in 1 2; do
  for mode in fence-forked fence-plain bwrap; do
    iso=${mode%%-*}; fs=1; [ $mode = fence-plain ] && fs=0
    s=$(date +%s.%N)
    JAXSTATE_TUTOR_FORK_SERVER=$fs $PY -m tutor --home $B/inst grade $B/collected --json $B/t-$mode.json --isolation $iso 2>/dev/null
    e=$(date +%s.%N)
    echo "$mode round $round: $(echo "$e - $s" | bc) s  load $(cut -d' ' -f1 /proc/loadavg)  statuses $(grep -o '"status": "[a-z]*"' $B/t-$mode.json | sort | uniq -c | tr -s ' ' | tr '\n' ' ')"
  done
done
