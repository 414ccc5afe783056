set -o pipefail
. tools/tpu/setup.sh
echo "== host"; nproc; uptime; python3 -c 'import platform,sys,jax; print(platform.libc_ver(), sys.version.split()[0], jax.__version__)'
echo "== gVisor's /proc, seen from a parent of a CPU JAX process"
JAX_PLATFORMS=cpu python3 tools/tpu/proc_probe.py 2>&1 | tee $OUT/proc_probe.txt
echo "== verify, CPU workers"
H=$(mktemp -d); /usr/bin/time -f "verify_cpu wall %e s" python3 -m tutor --home $H verify --json > $OUT/verify_cpu.json; echo rc=$?
python3 tools/tpu/summary.py $OUT/verify_cpu.json
echo "== check counter-jit: CPU twice, then TPU three times"
cp solutions/counter-jit.py /tmp/cj.py
for i in 1 2; do /usr/bin/time -f "cpu check wall %e s" python3 -m tutor --home $H check counter-jit --file /tmp/cj.py --json > $OUT/cj_cpu_$i.json; python3 tools/tpu/summary.py $OUT/cj_cpu_$i.json; done
for i in 1 2 3; do /usr/bin/time -f "tpu check wall %e s" python3 -m tutor --home $H check counter-jit --file /tmp/cj.py --json --accelerator > $OUT/cj_tpu_$i.json; python3 tools/tpu/summary.py $OUT/cj_tpu_$i.json; done
echo "== doctor on the chip"
/usr/bin/time -f "doctor wall %e s" python3 -m tutor --home $H doctor tests/doctor/host_sync_float_each_step.py --json --accelerator > $OUT/doctor_tpu.json; echo rc=$?
python3 -c "import json; d=json.load(open('$OUT/doctor_tpu.json')); print(d.get('status'), [ (f.get('kind'), f.get('line'), f.get('count')) for f in d.get('findings',[])]); print(d.get('stderr','')[-600:])"
echo "== faults on CPU workers"
for f in mem_numpy thread_loop many_children; do python3 -m tutor --home $H check counter-jit --file tests/faults/$f.py --json > $OUT/fault_$f.json; python3 tools/tpu/summary.py $OUT/fault_$f.json; done
uptime
