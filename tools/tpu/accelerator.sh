. tools/tpu/setup.sh
uptime
echo "== memory of a TPU JAX process, as the guard reads it"
python3 - <<'PY' 2>&1 | grep -v -e "hugepages" -e "warnings.warn"
import subprocess, sys
from tutor import host
c = subprocess.Popen([sys.executable, "-c", "import jax, time; jax.numpy.ones(3).block_until_ready(); print(jax.devices(), flush=True); time.sleep(20)"], stdout=subprocess.PIPE)
print(c.stdout.readline().decode().strip())
st = open(f"/proc/{c.pid}/status").read()
print([l for l in st.splitlines() if l.startswith(("VmRSS", "VmData", "VmSize", "RssAnon", "Threads"))])
print("host.memory_of MB", (host.memory_of(c.pid) or 0) >> 20, "threads", host.threads_of(c.pid))
c.kill()
PY
H=$(mktemp -d); cp solutions/counter-jit.py /tmp/cj.py
echo "== check counter-jit --accelerator, three times"
for i in 1 2 3; do /usr/bin/time -f "tpu check wall %e s" python3 -m tutor --home $H check counter-jit --file /tmp/cj.py --accelerator > $OUT/cj_tpu_$i.txt 2>&1; tail -3 $OUT/cj_tpu_$i.txt; done
echo "== verify with --accelerator, streamed"
timeout 330 python3 tools/tpu/verify_stream.py solution starter 2>&1 | grep -v -e "hugepages" -e "warnings.warn" | tee $OUT/verify_tpu.txt
uptime
