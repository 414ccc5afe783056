# One device call: everything the TPU must show, most important first, each part under its own
# limit (what finished is kept under $OUT if the call runs out).
. tools/tpu/setup.sh
quiet() { grep --line-buffered -v -e "hugepages" -e "warnings.warn"; }
uptime
echo "== verify --accelerator, reference solutions"
timeout 290 python3 tools/tpu/verify_stream.py solution 2>&1 | quiet | tee $OUT/verify_solutions.txt
echo "== the TUI with --accelerator"
timeout 60 python3 tools/tpu/tui_accelerator.py $OUT 2>&1 | quiet | tail -20 | tee $OUT/tui.txt
echo "== cells on the CPU, a chip another process holds"
timeout 130 python3 tools/tpu/turns.py 2>&1 | quiet | tee $OUT/turns.txt
echo "== verify --accelerator, starters (as many as fit)"
timeout 75 python3 tools/tpu/verify_stream.py starter 2>&1 | quiet | tee $OUT/verify_starters.txt
uptime
