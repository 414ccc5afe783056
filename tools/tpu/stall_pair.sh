# The worst UI stall while rnn is checked (`python -m tutor.bench --only stalls`: the trace panel
# open, the reference curve drawn), an older tree (.old, a git archive) against this one,
# alternated. Source tools/tpu/setup.sh first.   bash tools/tpu/stall_pair.sh [PAIRS]
OLD=${OLD:-$PWD/.old}
BASE=${PYTHONPATH%:/tmp/site:*}
for pair in $(seq 1 "${1:-2}"); do
  for tree in old new; do
    if [ "$tree" = old ]; then dir=$OLD; else dir=$PWD; fi
    figures=$(cd "$dir" && JAX_PLATFORMS=cpu PYTHONPATH="$BASE:/tmp/site:$dir" timeout -k 5 200 \
      python3 -m tutor.bench --only stalls --json 2>/dev/null)
    echo "pair $pair $tree load $(cut -d' ' -f1 /proc/loadavg): $figures"
  done
done
