"""Why a worker failed before any learner code ran (tutor.sandbox.startup_causes), from what real
workers left on stderr: every sample below was copied from a real run (this checkout's worker
through `jaxstate-tutor check ... --json`, plain `python -c "import jax ..."`, or a TPU v5e
machine), paths and all; only a few frames are cut. And the start-up noise that is kept out of
the stderr the learner is shown (tutor.sandbox.noise)."""

from __future__ import annotations

import os
import signal
import sys

import pytest

from tutor.sandbox.noise import without_noise
from tutor.sandbox.startup_causes import (
    CAUSES,
    HostLimits,
    Limit,
    Shadow,
    classify,
    find_shadows,
    real_error,
    setting_environment,
)

KB = 1024
HUGEPAGES = (
    "/opt/device-scrub/jax/_src/cloud_tpu_init.py:88: UserWarning: Transparent hugepages are not enabled. TPU "
    "runtime startup and shutdown time should be significantly improved on TPU v5e and newer. If not already set, "
    "you may need to enable transparent hugepages in your VM image "
    '(sudo sh -c "echo always > /sys/kernel/mm/transparent_hugepage/enabled")\n'
    "  warnings.warn(\n"
)
ABSL = (
    "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR\n"
    "I0000 00:00:1733427560.123456   12345 tpu_initializer_helper.cc:116] libtpu.so is already in use\n"
    "E0000 00:00:1733427560.223456   12345 common_lib.cc:612] Could not set metric server port: 8431\n"
    "W1205 21:19:08.694348    4679 cpu_client.cc:123] Using a slow path\n"
)

# `PYTHONPATH=/tmp/samples/fakejax` holding jax/__init__.py (`raise ImportError("fake jax")`)
FAKE_JAX = """Traceback (most recent call last):
  File "/work/main/tutor/child/worker.py", line 121, in main
    configure_jax_settings(args.cache_dir)
  File "/work/main/tutor/child/worker.py", line 41, in configure_jax_settings
    import jax
  File "/tmp/samples/fakejax/jax/__init__.py", line 1, in <module>
    raise ImportError("fake jax")
ImportError: fake jax

"""
# an empty jax/__init__.py: nothing on stderr names its path
EMPTY_JAX = """Traceback (most recent call last):
  File "/work/main/tutor/child/worker.py", line 121, in main
    configure_jax_settings(args.cache_dir)
  File "/work/main/tutor/child/worker.py", line 45, in configure_jax_settings
    jax.config.update("jax_compilation_cache_dir", cache_dir)
    ^^^^^^^^^^
AttributeError: module 'jax' has no attribute 'config'

"""
# a numpy.py (`x = 1`), as the worker meets it
FAKE_NUMPY_WORKER = """Traceback (most recent call last):
  File "<frozen runpy>", line 198, in _run_module_as_main
  File "<frozen runpy>", line 88, in _run_code
  File "/work/main/tutor/child/worker.py", line 181, in <module>
    main()
  File "/work/main/tutor/child/worker.py", line 115, in main
    channel.open_channel(args.event_fd)
  File "/work/main/tutor/child/channel.py", line 41, in open_channel
    _asarray = numpy.asarray
               ^^^^^^^^^^^^^
AttributeError: module 'numpy' has no attribute 'asarray'
"""
# the same numpy.py, as `import jax` meets it
FAKE_NUMPY_JAX = """Traceback (most recent call last):
  File "/work/main/.venv/lib/python3.11/site-packages/numpy/_core/__init__.py", line 24, in <module>
ModuleNotFoundError: No module named 'numpy.core'; 'numpy' is not a package
ImportError: numpy._core.multiarray failed to import

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "/work/main/.venv/lib/python3.11/site-packages/jax/__init__.py", line 25, in <module>
    from jax._src.cloud_tpu_init import cloud_tpu_init as _cloud_tpu_init
  File "/work/main/.venv/lib/python3.11/site-packages/jaxlib/xla_client.py", line 28, in <module>
    from jaxlib import _jax as _xla
ImportError: Encountered an error while initializing the extension.
"""
XLA_UNKNOWN = (
    "F1205 21:20:01.418013    7115 parse_flags_from_env.cc:234] Unknown flag in XLA_FLAGS: --xla_no_such_flag=1\n"
)
X64_MAYBE = """Traceback (most recent call last):
  File "/work/main/tutor/child/worker.py", line 121, in main
    configure_jax_settings(args.cache_dir)
  File "/work/main/tutor/child/worker.py", line 41, in configure_jax_settings
    import jax
  File "/work/main/.venv/lib/python3.11/site-packages/jax/_src/config.py", line 84, in bool_env
    raise ValueError(f"invalid truth value {val!r} for environment {varname!r}")
ValueError: invalid truth value 'maybe' for environment 'JAX_ENABLE_X64'

"""
# JAX 0.10 with JAX_PLATFORMS=cuda (and --accelerator) on a machine without a GPU
PLATFORMS_CUDA = """Traceback (most recent call last):
  File "/work/main/tutor/child/worker.py", line 132, in main
    start_backend()
  File "/work/main/tutor/child/worker.py", line 34, in start_backend
    jax.devices()  # initialise the backend now, not during the learner's first call
    ^^^^^^^^^^^^^
  File "/work/main/.venv/lib/python3.11/site-packages/jax/_src/xla_bridge.py", line 952, in _get_backend_uncached
    bs = backends()
         ^^^^^^^^^^
  File "/work/main/.venv/lib/python3.11/site-packages/jax/_src/xla_bridge.py", line 857, in backends
    assert _default_backend is not None
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
AssertionError

"""
PLATFORMS_TPU = """Traceback (most recent call last):
  File "/work/main/.venv/lib/python3.11/site-packages/jaxlib/xla_client.py", line 115, in load_pjrt_plugin_dynamically
    return _xla.load_pjrt_plugin(plugin_name, library_path, c_api=None)
jax.errors.JaxRuntimeError: INTERNAL: Failed to open libtpu.so: libtpu.so: cannot open shared object file: No such file or directory

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/work/main/tutor/child/worker.py", line 132, in main
    start_backend()
  File "/work/main/.venv/lib/python3.11/site-packages/jax/_src/xla_bridge.py", line 855, in backends
    raise RuntimeError(err_msg)
RuntimeError: Unable to initialize backend 'tpu': INTERNAL: Failed to open libtpu.so: libtpu.so: cannot open shared object file: No such file or directory (set JAX_PLATFORMS='' to automatically choose an available backend)
"""
# a TPU v5e whose chip another process held (JAX_PLATFORMS unset)
TPU_BUSY = (
    HUGEPAGES
    + """Traceback (most recent call last):
  File "/opt/device-scrub/jax/_src/xla_bridge.py", line 839, in backends
    backend = _init_backend(platform)
              ^^^^^^^^^^^^^^^^^^^^^^^
  File "/opt/device-scrub/jax/_src/xla_bridge.py", line 209, in make_tpu_client
    _jax.initialize_pjrt_plugin('tpu')
jax.errors.JaxRuntimeError: ABORTED: The TPU is already in use by process with pid 1415. Not attempting to load libtpu.so in this process.

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "/opt/device-scrub/jax/_src/xla_bridge.py", line 855, in backends
    raise RuntimeError(err_msg)
RuntimeError: Unable to initialize backend 'tpu': ABORTED: The TPU is already in use by process with pid 1415. Not attempting to load libtpu.so in this process. (set JAX_PLATFORMS='' to automatically choose an available backend)
"""
)
# reported from other TPU machines (the same JAX): the lockfile of libtpu held
TPU_LOCKFILE = (
    "RuntimeError: Unable to initialize backend 'tpu': INTERNAL: Internal error when accessing libtpu "
    'multi-process lockfile. Run "$ sudo lsof -w /dev/accel0" to figure out which process is holding the TPU.\n'
)
GPU_OUT_OF_MEMORY = (
    "E1205 10:00:00.000000   1234 cuda_driver.cc:268] failed to allocate 14.57GiB (15641083904 bytes) from device: "
    "CUDA_ERROR_OUT_OF_MEMORY: out of memory\n"
    "jax.errors.JaxRuntimeError: INTERNAL: no supported devices found for platform CUDA\n"
)
# under `ulimit -v 4000000` a TPU's start hung until killed
TPU_HUNG = (
    HUGEPAGES
    + "/opt/device-scrub/jax/_src/xla_bridge.py:224: UserWarning: TPU backend initialization is taking more than "
    "60.0 seconds. Did you run your code on all TPU hosts? See https://docs.jax.dev/en/latest/multi_process.html "
    "for more information.\n  warnings.warn(\n"
)
# `ulimit -v`: three ways the same limit ends a worker's start
V_BAD_ALLOC = "terminate called after throwing an instance of 'St9bad_alloc'\n  what():  std::bad_alloc\n"
V_MEMORY_ERROR = """Traceback (most recent call last):
  File "<frozen importlib._bootstrap>", line 1147, in _find_and_load_unlocked
  File "/work/main/.venv/lib/python3.11/site-packages/jax/_src/dtypes.py", line 32, in <module>
object address  : 0x7f5cb28d19c0
object refcount : 2
object type     : 0x7f5cc9a4d480
object type name: MemoryError
object repr     : 
lost sys.stderr
Exception ignored in atexit callback: <nanobind.nb_func object at 0x7f5cc146b890>
MemoryError: std::bad_alloc
"""  # noqa: W291
V_THREAD_LOCAL = "cannot allocate memory for thread-local data: ABORT\n"
# `ulimit -d 150000`: XLA cannot make a thread (its stack counts as data)
D_THREAD = (
    "F1205 21:36:46.030060   19412 env.cc:93] Check failed: ret == 0 (11 vs. 0) Thread tf_XLAEigen creation via "
    "pthread_create() failed.\n*** Check failure stack trace: ***\n"
    "    @     0x7fd935440634  absl::lts_20260107::log_internal::LogMessage::SendToLog()\n"
    "    @     0x7fd944558ba3  PyObject_Vectorcall\n"
)
# a reaper before it took the lower of the host's hard limit and its own
REAPER_REFUSED = "reaper: could not start the worker: not allowed to raise maximum limit\n"
EFBIG = """Traceback (most recent call last):
  File "/work/main/.venv/lib/python3.11/site-packages/jax/_src/compilation_cache.py", line 210, in put_executable
    f.write(data)
OSError: [Errno 27] File too large
"""
U_THREADS = (
    "F external/xla/tsl/platform/default/env.cc:77] pthread_create failed: Resource temporarily unavailable\n"
    "Traceback (most recent call last):\n  ...\nSystemError: <built-in function X> returned NULL "
    "(in PyObject_Vectorcall)\n"
)
NO_YAML = """Traceback (most recent call last):
  File "/work/main/tutor/child/harness.py", line 12, in <module>
    import yaml
ModuleNotFoundError: No module named 'yaml'
"""
NO_TUTOR_PART = "ModuleNotFoundError: No module named 'tutor.child.harness'\n"
NO_JAX = "ModuleNotFoundError: No module named 'jax'\n"

UNLIMITED = HostLimits()


def small(**limits: int) -> HostLimits:
    """Host limits as `ulimit -v 2000000` sets them (soft and hard alike): KB, `u` a count."""
    return HostLimits(**{k: Limit(*[v if k == "u" else v * KB] * 2) for k, v in limits.items()})


# (name, stderr, returncode, env, limits, cause code, what both languages must contain)
CASES = [
    ("fake jax on PYTHONPATH", FAKE_JAX, 1, {"PYTHONPATH": "/tmp/samples/fakejax"}, UNLIMITED, "shadow",
     ["PYTHONPATH", "/tmp/samples/fakejax/jax", "ImportError: fake jax"]),
    ("numpy.py found by the traceback alone", FAKE_NUMPY_JAX, 1, {"PYTHONPATH": "play"}, UNLIMITED, "shadow",
     ["PYTHONPATH", "play", "'numpy' is not a package"]),
    ("unknown XLA flag", XLA_UNKNOWN, -signal.SIGABRT, {"XLA_FLAGS": "--xla_no_such_flag=1"}, UNLIMITED,
     "xla-flags", ["XLA_FLAGS=--xla_no_such_flag=1", "env -u XLA_FLAGS"]),
    ("unknown XLA flag on a TPU", HUGEPAGES + XLA_UNKNOWN, 1, {"XLA_FLAGS": "--xla_no_such_flag=1"}, UNLIMITED,
     "xla-flags", ["XLA_FLAGS"]),
    ("JAX_ENABLE_X64=maybe", X64_MAYBE, 1, {"JAX_ENABLE_X64": "maybe"}, UNLIMITED, "setting",
     ["JAX_ENABLE_X64=maybe", "env -u JAX_ENABLE_X64"]),
    ("JAX_PLATFORMS=cuda without a GPU", PLATFORMS_CUDA, 1, {"JAX_PLATFORMS": "cuda"}, UNLIMITED, "jax-platforms",
     ["JAX_PLATFORMS=cuda", "'cuda'", "env -u JAX_PLATFORMS"]),
    ("JAX_PLATFORMS=tpu without libtpu", PLATFORMS_TPU, 1, {"JAX_PLATFORMS": "tpu"}, UNLIMITED, "jax-platforms",
     ["JAX_PLATFORMS=tpu", "'tpu'"]),
    ("TPU held by another process", TPU_BUSY, 1, {}, UNLIMITED, "accelerator-busy", ["TPU", "1415", "--accelerator"]),
    ("TPU held, JAX_PLATFORMS=tpu,cpu", TPU_BUSY, 1, {"JAX_PLATFORMS": "tpu,cpu"}, UNLIMITED, "accelerator-busy",
     ["TPU", "--accelerator"]),
    ("libtpu lockfile", TPU_LOCKFILE, 1, {}, UNLIMITED, "accelerator-busy", ["TPU", "--accelerator"]),
    ("GPU memory taken", GPU_OUT_OF_MEMORY, 1, {}, UNLIMITED, "accelerator-busy", ["GPU", "--accelerator"]),
    ("libtpu missing, no JAX_PLATFORMS", PLATFORMS_TPU, 1, {}, UNLIMITED, "accelerator", ["TPU", "--accelerator"]),
    ("ulimit -v: bad_alloc", V_BAD_ALLOC, -signal.SIGABRT, {}, small(v=1000000), "host-limit",
     ["`ulimit -v`", "1000000 KB", "std::bad_alloc"]),
    ("ulimit -v: SIGSEGV, nothing said", "", -signal.SIGSEGV, {}, small(v=2000000), "host-limit",
     ["`ulimit -v`", "2000000 KB", "SIGSEGV"]),
    ("ulimit -v: MemoryError", V_MEMORY_ERROR, 1, {}, small(v=400000), "host-limit",
     ["`ulimit -v`", "400000 KB", "MemoryError: std::bad_alloc"]),
    ("ulimit -v: the loader", V_THREAD_LOCAL, 127, {}, small(v=700000), "host-limit", ["`ulimit -v`", "700000 KB"]),
    ("ulimit -d: no thread", D_THREAD, -signal.SIGABRT, {}, small(d=150000), "host-limit",
     ["`ulimit -d`", "150000 KB", "pthread_create"]),
    ("ulimit -d under an older reaper", REAPER_REFUSED, 127, {}, small(d=3000000), "host-limit",
     ["`ulimit -d`", "3000000 KB"]),
    ("ulimit -f under an older reaper", REAPER_REFUSED, 127, {}, small(f=100000), "host-limit",
     ["`ulimit -f`", "100000 KB"]),
    ("ulimit -f: EFBIG", EFBIG, 1, {}, small(f=100000), "host-limit", ["`ulimit -f`", "File too large"]),
    ("ulimit -u reached", U_THREADS, 1, {}, small(u=12), "threads", ["`ulimit -u`", " 12", "pthread_create failed"]),
    ("threads refused, no limit", U_THREADS, 1, {}, UNLIMITED, "threads", ["`ulimit -u`", "pthread_create failed"]),
    ("machine out of memory", V_BAD_ALLOC, -signal.SIGABRT, {}, UNLIMITED, "out-of-memory", ["std::bad_alloc"]),
    ("yaml missing", NO_YAML, 1, {}, UNLIMITED, "install", ["No module named 'yaml'", "pip install -e ."]),
    ("a tutor module missing", NO_TUTOR_PART, 1, {}, UNLIMITED, "install", ["tutor.child.harness", "pip install"]),
    ("jax not installed", NO_JAX, 1, {}, UNLIMITED, "install", ["No module named 'jax'", "pip install"]),
    ("something else", "RuntimeError: the moon is full\n", 1, {}, UNLIMITED, "unknown",
     ["RuntimeError: the moon is full", "--json"]),
    ("something else, a setting set", "RuntimeError: the moon is full\n", 1, {"XLA_FLAGS": "--xla_cpu_foo=1"},
     UNLIMITED, "unknown", ["XLA_FLAGS", "env -u XLA_FLAGS"]),
    ("a crash, nothing said", "", -signal.SIGSEGV, {}, UNLIMITED, "unknown", ["SIGSEGV"]),
]  # fmt: skip


@pytest.mark.parametrize("stderr, rc, env, limits, code, named", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_known_cause_is_named_with_what_to_do(stderr, rc, env, limits, code, named):
    cause = classify(stderr, rc, env, limits, memory_limit_mb=4096)
    assert cause.code == code, cause.message.en
    for text in (cause.message.en, cause.message.zh):
        for word in named:
            assert word in text, (word, text)
        # never the learner's fault, never advice about their code; "reinstall" only for the install
        assert ("pip install" in text) == (code == "install"), text
        assert "warnings.warn(" not in text and "sys.exit" not in text, text
    assert "not a fault in your code" in cause.message.en and "To fix:" in cause.message.en
    assert "问题不在你的代码" in cause.message.zh and "解决办法" in cause.message.zh
    assert "To fix" not in cause.message.zh


def test_every_cause_of_the_table_is_exercised():
    codes = {code for code, _ in CAUSES} | {"unknown"}
    assert codes == {c[5] for c in CASES}


@pytest.mark.parametrize(
    "text, quote",
    [
        (TPU_BUSY, "RuntimeError: Unable to initialize backend 'tpu': ABORTED: The TPU is already in use"),
        (HUGEPAGES + X64_MAYBE, "ValueError: invalid truth value 'maybe' for environment 'JAX_ENABLE_X64'"),
        (ABSL + HUGEPAGES + XLA_UNKNOWN, "Unknown flag in XLA_FLAGS: --xla_no_such_flag=1"),
        (D_THREAD, "Check failed: ret == 0 (11 vs. 0) Thread tf_XLAEigen creation via pthread_create() failed."),
        (V_BAD_ALLOC, "C++ exception: std::bad_alloc"),
        (V_MEMORY_ERROR, "MemoryError: std::bad_alloc"),
        (PLATFORMS_CUDA, "AssertionError"),
        ("Fatal Python error: init_import_site: Failed to import the site module\n", "Fatal Python error: init_"),
        (REAPER_REFUSED + "Traceback (most recent call last):\nValueError: x\n", "reaper: could not start the worker"),
        (HUGEPAGES, ""),  # noise alone says nothing
        (ABSL, ""),
    ],
)
def test_the_real_error_is_found_past_the_noise(text, quote):
    found = real_error(text)
    assert found.startswith(quote) if quote else found == "", found


def test_the_cause_is_never_the_warning_line_of_the_tpu_runtime():
    """A TPU's every start ends its stderr with `  warnings.warn(`: never quoted as the cause."""
    cause = classify(HUGEPAGES + "RuntimeError: the moon is full\n" + HUGEPAGES, 1, {})
    assert "the moon is full" in cause.quote
    hung = classify(TPU_HUNG, None, {}, timed_out_s=120)
    assert hung.code == "accelerator" and "120 s" in hung.message.en and "TPU" in hung.message.en
    assert "warnings.warn" not in hung.message.en


def test_a_start_that_hangs_under_a_small_address_space_names_the_limit():
    cause = classify(TPU_HUNG, None, {}, small(v=4000000), timed_out_s=120)
    assert cause.code == "host-limit" and "`ulimit -v`" in cause.message.en


def test_a_timeout_with_nothing_said_is_not_blamed_on_the_install():
    cause = classify("", None, {}, timed_out_s=120)
    assert cause.code == "unknown" and "did not get ready in 120 s" in cause.message.en
    assert "pip install" not in cause.message.en and "120 秒" in cause.message.zh


def test_a_soft_limit_is_raised_by_the_learner_a_hard_one_by_the_administrator():
    soft = classify(V_BAD_ALLOC, -6, {}, HostLimits(v=Limit(1000000 * KB, None))).message
    assert "`ulimit -v unlimited`" in soft.en and "administrator" not in soft.en
    hard = classify(V_BAD_ALLOC, -6, {}, small(v=1000000)).message
    assert "administrator" in hard.en and "limits.conf" in hard.en and "管理员" in hard.zh
    assert "8388608 KB" in hard.en  # what to ask for


def test_a_limit_at_or_above_what_the_tutor_needs_is_not_blamed():
    roomy = small(v=16 * 2**20, d=8 * 2**20, f=2 * 2**20)
    assert classify(V_BAD_ALLOC, -6, {}, roomy).code == "out-of-memory"
    assert classify(EFBIG, 1, {}, roomy).code == "unknown"
    # the data limit is measured against the tutor's own bound on a check
    assert classify(D_THREAD, -6, {}, small(d=3000000), memory_limit_mb=2048).code == "threads"


def test_a_shadow_found_in_the_pythonpath_folders_is_named_with_its_path():
    """Nothing on stderr names the file (an empty jax/__init__.py, a numpy.py): the parent's look
    through PYTHONPATH does."""
    env = {"PYTHONPATH": "/home/me/play:/work/main"}
    jax = Shadow("jax", "/home/me/play/jax", "/home/me/play")
    cause = classify(EMPTY_JAX, 1, env, shadows=(jax,))
    assert (
        cause.code == "shadow" and "`/home/me/play/jax`" in cause.message.en and "`/home/me/play`" in cause.message.en
    )
    assert "env -u PYTHONPATH" in cause.message.en and "/home/me/play/jax" in cause.message.zh
    numpy = Shadow("numpy", "/home/me/play/numpy.py", "/home/me/play")
    assert "/home/me/play/numpy.py" in classify(FAKE_NUMPY_WORKER, 1, env, shadows=(numpy,)).message.en


def test_a_shadow_of_a_module_the_error_does_not_name_is_not_blamed():
    """A `random.py` in a project on PYTHONPATH is not why XLA_FLAGS broke, nor why the moon is full."""
    env = {"PYTHONPATH": "/home/me/project"}
    other = Shadow("random", "/home/me/project/random.py", "/home/me/project")
    assert classify("RuntimeError: the moon is full\n", 1, env, shadows=(other,)).code == "unknown"
    broke = "  File \"/home/me/project/random.py\", line 3\nAttributeError: module 'random' has no attribute 'x'\n"
    assert classify(broke, 1, env, shadows=(other,)).code == "shadow"


def test_find_shadows_looks_through_pythonpath_without_importing(tmp_path):
    play = tmp_path / "play"
    (play / "jax").mkdir(parents=True)
    (play / "jax" / "__init__.py").write_text("raise ImportError('fake jax')\n")
    (play / "numpy.py").write_text("x = 1\n")
    (play / "random.py").write_text("x = 1\n")
    (play / "mine.py").write_text("x = 1\n")
    portion = tmp_path / "portion"
    (portion / "jaxlib").mkdir(parents=True)  # no __init__.py: a namespace portion hides nothing
    site = next(p for p in sys.path if p.endswith("site-packages"))  # this Python's own: hides nothing
    path = os.pathsep.join([str(play), str(portion), "relative/entry", site, str(tmp_path / "gone")])
    found = find_shadows(path)
    assert {(s.module, s.path, s.entry) for s in found} == {
        ("jax", str(play / "jax"), str(play)),
        ("numpy", str(play / "numpy.py"), str(play)),
        ("random", str(play / "random.py"), str(play)),
    }
    assert "jax" not in sys.modules or sys.modules["jax"].__file__ != str(play / "jax" / "__init__.py")


def test_the_environment_read_is_the_settings_and_pythonpath():
    environ = {"JAX_PLATFORMS": "cuda", "XLA_FLAGS": "--x", "PYTHONPATH": "/p", "HOME": "/h", "LIBTPU_INIT_ARGS": "-a"}
    assert dict(setting_environment(environ)) == {
        "JAX_PLATFORMS": "cuda",
        "XLA_FLAGS": "--x",
        "PYTHONPATH": "/p",
        "LIBTPU_INIT_ARGS": "-a",
    }


def test_host_limits_read_this_process():
    import resource

    limits = HostLimits.read()
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    assert limits.v.soft == (None if soft == resource.RLIM_INFINITY else soft)


# ------------------------------------------------------------------ noise


def test_runtime_noise_is_kept_out_of_what_the_learner_sees():
    learner = (
        "/home/me/ex.py:3: UserWarning: Explicitly requested dtype float64 requested in asarray is not available\n"
        "  x = jnp.asarray(1.0, dtype=jnp.float64)\n"
        "E1205 21:19:08.694348    4679 pjrt_stream_executor_client.cc:2809] Execution of replica 0 failed\n"
    )
    shown = without_noise(ABSL + HUGEPAGES + learner + X64_MAYBE + XLA_UNKNOWN)
    assert shown == learner + X64_MAYBE + XLA_UNKNOWN  # the learner's warnings, errors and every fatal line stay
    assert without_noise(HUGEPAGES + HUGEPAGES) == ""
    assert without_noise("") == "" and without_noise("no newline at the end") == "no newline at the end"
