"""What /proc says about a CPU JAX process's tree, raw and through tutor.host."""

import os
import subprocess
import sys

from tutor import host

child = subprocess.Popen(
    [
        sys.executable,
        "-c",
        "import jax, time; jax.numpy.ones(3).block_until_ready(); print('up', flush=True); time.sleep(30)",
    ],
    stdout=subprocess.PIPE,
)
child.stdout.readline()
me = os.getpid()
raw = []
for tid in os.listdir(f"/proc/{me}/task"):
    try:
        raw.append(open(f"/proc/{me}/task/{tid}/children").read().split())
    except OSError as e:
        raw.append(repr(e))
print("my threads:", len(os.listdir(f"/proc/{me}/task")), "children files:", raw[:3], "...")
print("child pid", child.pid, "host.children_of:", host.children_of(me), "descendants:", host.descendants(me))
print("child's tasks:", len(os.listdir(f"/proc/{child.pid}/task")), "host.threads_of:", host.threads_of(child.pid))
print(
    "smaps_rollup exists:",
    os.path.exists(f"/proc/{child.pid}/smaps_rollup"),
    "host.memory_of MB:",
    (host.memory_of(child.pid) or 0) >> 20,
)
print("guards_off:", host.guards_off())
child.kill()
