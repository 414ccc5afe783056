#!/bin/bash
# The README's suite command on a busy machine (issue 41): one CPU burner per core for the whole
# run, the load average sampled each minute. Run from the repository root, with .venv made as
# the README says:  tools/loaded_suite.sh [pytest args...]
set -u
cores=$(nproc)
background=()  # the burners, then the load sampler: all killed on exit
for _ in $(seq "$cores"); do
    (while :; do :; done) &
    background+=($!)
done
trap 'kill "${background[@]}" 2>/dev/null' EXIT
(while :; do echo "load $(date +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 60; done) &
background+=($!)
start=$(date +%s)
.venv/bin/python -m pytest -n 2 --dist loadfile "$@"
status=$?
echo "suite exit $status after $(($(date +%s) - start)) s with $cores burners; load now $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
