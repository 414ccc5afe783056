# One device call to see a commit whole on the TPU VM, most important first, each part under its
# own limit: verify on CPU workers, verify --accelerator (solutions, then starters as time allows),
# the guarded signal faults under the VM's gVisor, doctor on the chip, the TUI with --accelerator.
. tools/tpu/setup.sh
quiet() { grep --line-buffered -v -e "hugepages" -e "warnings.warn"; }
uptime; git_rev=$(cat REV 2>/dev/null); echo "commit $git_rev"
H=$(mktemp -d)
echo "== verify, CPU workers"
timeout 90 /usr/bin/time -f "verify_cpu wall %e s" python3 -m tutor --home $H verify --json > $OUT/verify_cpu.json; echo rc=$?
python3 tools/tpu/summary.py $OUT/verify_cpu.json | tail -3
echo "== verify --accelerator, reference solutions"
timeout 260 python3 tools/tpu/verify_stream.py solution 2>&1 | quiet | tee $OUT/verify_solutions.txt | tail -20
# Not fork_bomb or signal_past_hook: a call that ran them here never answered (RELIABILITY.md), and
# signal_past_hook walks up to pid 1 without FAULT_SPARE_PID, which here is the device's own command.
echo "== signal faults, CPU workers (gVisor: no Landlock)"
for f in signal_stop_tutor signal_term_tutor signal_tstp_group signal_every_process kill_reaper; do
  timeout 60 python3 -m tutor --home $H check counter-jit --file tests/faults/$f.py --json > $OUT/fault_$f.json; echo "$f rc=$?"; python3 tools/tpu/summary.py $OUT/fault_$f.json | head -2
done
ps -eo pid,stat,args | grep -c "tutor.child" 
echo "== doctor on the chip"
timeout 60 python3 -m tutor --home $H doctor --accelerator tests/doctor/host_sync_float_each_step.py --json > $OUT/doctor_tpu.json; echo rc=$?
python3 -c "import json; d=json.load(open('$OUT/doctor_tpu.json')); print(d.get('status'), [(f.get('kind'), f.get('line'), f.get('count')) for f in d.get('findings', [])])"
echo "== the TUI with --accelerator"
timeout 100 python3 tools/tpu/tui_accelerator.py $OUT 2>&1 | quiet | tail -8
echo "== verify --accelerator, starters"
timeout 70 python3 tools/tpu/verify_stream.py starter 2>&1 | quiet | tail -8
uptime
