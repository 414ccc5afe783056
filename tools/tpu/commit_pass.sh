# Call A: verify on CPU workers, 2,000-process bombs, the warm pair, the UI stall old/new.
. tools/tpu/setup.sh
uptime; echo "commit $(cat .diag/REV 2>/dev/null)"
H=$(mktemp -d)
echo "== verify, CPU workers"
timeout 100 /usr/bin/time -f "verify_cpu wall %e s" python3 -m tutor --home $H verify --json > $OUT/verify_cpu.json; echo rc=$?
python3 tools/tpu/summary.py $OUT/verify_cpu.json | tail -3
echo "== fork bombs, 2000"
FAULT_BOMB_TOTAL=2000 timeout 200 bash tools/tpu/fork_bound.sh 2>&1 | tail -6
echo "== warm pair"
OLD=$PWD/.old timeout 220 bash tools/tpu/warm_pair.sh 2 5
echo "== ui stall (new, old, new)"
BASE=${PYTHONPATH%:/tmp/site:*}
for dir in $PWD $PWD/.old $PWD; do
  (cd $dir && PYTHONPATH="$BASE:/tmp/site:$dir" timeout 90 python3 -m tutor.bench --only stalls --json 2>/dev/null | python3 -c "import json,sys; d=json.load(sys.stdin); print('$dir'[-4:], {k: v for k, v in d.items() if 'stall' in k})")
done
uptime
