# The bounded fork bombs through `check --json` on this host (the TPU VM: gVisor), each under a hard
# outer limit so that the call always answers: the verdict, the run's own seconds against its limit
# of 30 s, the whole command's seconds, and the most processes /proc showed meanwhile (under
# gVisor zombies included: tools/tpu/fork_peak.py), and how many of the run's processes were still
# alive once `check` had returned (`left`, 0 required). Held: error/processes with run_s under 32
# and nothing left.
# Each bomb makes at most FAULT_BOMB_TOTAL processes (300 here: 3 x the tutor's bound), each
# living 45 s at most, whatever happens.
[ -d .whl-tpu ] && . tools/tpu/setup.sh
OUT=${OUT:-$(mktemp -d)}
H=$(mktemp -d)
export FAULT_BOMB_TOTAL=${FAULT_BOMB_TOTAL:-300}
uptime
for f in ${FAULTS:-fork_bomb_bounded fork_bomb_bounded_setsid}; do
  timeout -k 5 90 python3 tools/tpu/fork_peak.py "$OUT/$f.json" -- \
    python3 -m tutor --home "$H" check counter-jit --file "tests/faults/$f.py" --json --timeout 30 > "$OUT/$f.line"
  rc=$?
  python3 - "$f" "$rc" "$OUT/$f.line" <<'PY'
import json, sys
name, rc, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
try:
    d = json.loads(open(path).read())
except (OSError, ValueError):
    print(f"{name}: no answer within 90 s (outer timeout rc={rc}): NOT HELD")
    sys.exit()
held = (d["status"], d["kind"]) == ("error", "processes") and (d["run_s"] or 99) < 32 and d.get("left") == 0
print(f"{name}: {d['status']}/{d['kind']} run {d['run_s']} s of 30, command {d['seconds']} s, "
      f"peak {d['peak_processes']} processes at {d['peak_at_s']} s, {d.get('left')} left: {'HELD' if held else 'NOT HELD'}")
PY
  sleep 2
done
ps -eo stat= | grep -c . | sed 's/^/processes left: /'
uptime
