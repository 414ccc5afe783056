# The warm verdict, an older tree against this one, alternated in one session (BENCHMARKS.md:
# the warm verdict). Source tools/tpu/setup.sh first; OLD is a `git archive` of the older commit
# unpacked beside the checkout (.old). Each figure: `python -m tutor.bench --only small` on CPU workers.
#   bash tools/tpu/warm_pair.sh [PAIRS] [REPEAT]
OLD=${OLD:-$PWD/.old}
BASE=${PYTHONPATH%:/tmp/site:*}  # the machine's own PYTHONPATH, before setup.sh added the wheels and this tree
for pair in $(seq 1 "${1:-2}"); do
  for tree in old new; do
    if [ "$tree" = old ]; then dir=$OLD; else dir=$PWD; fi
    figures=$(cd "$dir" && JAX_PLATFORMS=cpu PYTHONPATH="$BASE:/tmp/site:$dir" timeout -k 5 240 \
      python3 -m tutor.bench --only small --repeat "${2:-5}" --json 2>/dev/null)
    echo "pair $pair $tree load $(cut -d' ' -f1 /proc/loadavg): $(python3 -c '
import json, sys
f = json.loads(sys.argv[1])
print("warm %.1f in-process %.1f: %+.1f ms, cold %.0f ms" % (1000 * f["small_warm_s"], 1000 * f["small_inprocess_s"],
      1000 * (f["small_warm_s"] - f["small_inprocess_s"]), 1000 * f["small_cold_s"]))' "$figures" 2>&1)"
  done
done
