# The warm verdict of several trees in one session (each a git archive in .t1, .t2, .t3 beside the checkout, and this one), one line each.
. tools/tpu/setup.sh
uptime
BASE=${PYTHONPATH%:/tmp/site:*}
for round in 1; do
for t in t1 t2 t3 main; do
  if [ $t = main ]; then dir=$PWD; else dir=$PWD/.$t; fi
  figures=$(cd "$dir" && JAX_PLATFORMS=cpu PYTHONPATH="$BASE:/tmp/site:$dir" timeout -k 5 100 python3 -m tutor.bench --only small --repeat 5 --json 2>/dev/null)
  echo "$round $t: $(python3 -c '
import json, sys
f = json.loads(sys.argv[1])
print("warm %.1f in-process %.1f: %+.1f ms" % (1000 * f["small_warm_s"], 1000 * f["small_inprocess_s"], 1000 * (f["small_warm_s"] - f["small_inprocess_s"])))' "$figures" 2>&1 | tail -1)"
done; done
uptime
