# `verify` in both modes through the real CLI, each run's line kept as it ends: CPU workers, then
# --accelerator (solutions and starters, about 430 s on one v5e chip). Call with a device limit of 590 s.
. tools/tpu/setup.sh
uptime; echo "commit $(cat REV 2>/dev/null)"
H=$(mktemp -d)
echo "== verify, CPU workers"
timeout 100 /usr/bin/time -f "verify_cpu wall %e s" python3 -m tutor --home $H --lang en verify --json-lines > $OUT/verify_cpu.jsonl 2>$OUT/verify_cpu.err; echo rc=$?
tail -2 $OUT/verify_cpu.err
echo "== verify --accelerator"
timeout 470 /usr/bin/time -f "verify_accelerator wall %e s" python3 -m tutor --home $H --lang en --accelerator verify 2>&1 | grep --line-buffered -v -e hugepages -e warnings.warn | tee $OUT/verify_accelerator.txt | tail -45
uptime
