"""A hostile course's lesson cells (issue 50: a course is code). tests/fixtures/hostile_course/attacks.yaml
is a lesson an author might ship in a course given by --course; each demo cell reaches for what is not
the course's: another home, the tutor's home, solutions, the network, the tutor's scheduling, System V
memory left behind, a fork bomb, files outside the run, the tutor's environment, signals to the tutor,
the compilation cache the shipped course uses. Each runs here through a real worker, as the TUI runs a
cell (the tutor is this test's own process), and is judged from outside: refused with a message naming
the rule, or contained; nothing got through."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import time
import uuid
from pathlib import Path
from types import SimpleNamespace

import pytest

from tutor import host
from tutor.course import read_course
from tutor.course.scaffold import new_course
from tutor.paths import shipped_course_root
from tutor.sandbox.runner import Sandbox, cache_dir_for

TEMPLATE = Path(__file__).resolve().parents[1] / "fixtures" / "hostile_course" / "attacks.yaml"
READS = "may read only its own folder, the course and Python", "只能读取它自己的文件夹"
WRITES = "may only change its own folder", "只能修改它自己的文件夹"
SOCKETS = "may not open network sockets", "不能打开网络套接字"
UNIX = "may not open sockets beyond the pipe the tutor gave it", "只能使用本教程给它的管道"
SHARED = "may not open POSIX shared memory or named semaphores", "具名信号量"
SYSV = "may not make System V IPC objects", "System V IPC"
SCHEDULING = "may change the scheduling only of its own processes", "调度"
SIGNALS = "may signal only itself and the processes it started", "只能向它自己和它启动的进程发信号"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not host.seccomp_filters(), reason="no seccomp filter on this host (see guards_off)"),
]


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """The course, with the places its cells reach for made real, and a sandbox running it as `--course` does."""
    root = tmp_path_factory.mktemp("hostile")
    course, home, other, outside = root / "course", root / "home", root / "other-home", root / "outside"
    new_course(course)
    for folder in (home / "workspace", other, outside):
        folder.mkdir(parents=True)
    (home / "progress.json").write_text('{"schema": 1, "exercises": {}}', encoding="utf-8")
    (other / "progress.json").write_text('{"schema": 1, "exercises": {"double": {"status": "passed"}}}')
    (other / ".serve-token").write_text("seat-s3cret", encoding="utf-8")
    (outside / ".bashrc").write_text("# the user's own\n", encoding="utf-8")
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.bind(str(root / "server.sock"))
    unix.listen(4)
    unix.setblocking(False)
    names = {
        "@OTHER_HOME@": str(other),
        "@HOME@": str(home),
        "@COURSE@": str(course),
        "@OUTSIDE@": str(outside),
        "@SOCKET@": str(root / "server.sock"),
        "@SHM_NAME@": f"jaxstate-hostile-{uuid.uuid4().hex[:8]}",
        "@BOMB_NAME@": f"jaxstate-bomb-{uuid.uuid4().hex[:10]}",
    }
    text = TEMPLATE.read_text(encoding="utf-8")
    for name, value in names.items():
        text = text.replace(name, repr(value))
    key = random.randrange(0x4B000000, 0x4BFFFFFF)
    for name, value in {"@PORT@": listener.getsockname()[1], "@TUTOR_PID@": os.getpid(), "@KEY@": key}.items():
        text = text.replace(name, str(value))
    (course / "lessons" / "66-attacks.yaml").write_text(text, encoding="utf-8")
    loaded, problems = read_course(course)
    cells = {cell.id: cell for cell in loaded.cells() if cell.id.startswith("attack-")}
    assert len(cells) >= 10 and not problems, problems
    os.environ["JAXSTATE_HOSTILE_S3CRET"] = "s3cret"  # in the tutor's environment: never a run's
    box = Sandbox(home, keep_spare=True, spare_early=True, course=course)
    try:
        yield SimpleNamespace(
            box=box, cells=cells, home=home, other=other, outside=outside, course=course, key=key,
            listener=listener, unix=unix, shm_name=names["@SHM_NAME@"], bomb_name=names["@BOMB_NAME@"],
        )  # fmt: skip
    finally:
        box.close()
        os.environ.pop("JAXSTATE_HOSTILE_S3CRET", None)
        listener.close()
        unix.close()
        subprocess.run(["ipcrm", "-M", str(key)], capture_output=True)
        subprocess.run(["ipcrm", "-S", str(key)], capture_output=True)
        Path("/dev/shm", names["@SHM_NAME@"]).unlink(missing_ok=True)


def _attack(hostile, cell_id: str) -> dict[str, str]:
    verdict = hostile.box.run_cell(hostile.cells[cell_id]).result()
    lines = [line for line in verdict.stdout.splitlines() if line.startswith("ATTACK ")]
    assert verdict.status == "pass" and lines, (verdict.kind, verdict.message.en, verdict.stdout, verdict.stderr)
    return json.loads(lines[0][len("ATTACK ") :])


def _refused(seen: dict[str, str], words: tuple[str, str], *names: str) -> None:
    for name in names or tuple(seen):
        assert seen[name].startswith("refused: ") and all(w in seen[name] for w in words), (name, seen)


def test_another_home_is_out_of_sight(hostile):
    _refused(_attack(hostile, "attack-other-home"), READS)


def test_the_tutors_home_is_out_of_sight(hostile):
    _refused(_attack(hostile, "attack-tutor-home"), READS)


def test_no_solution_is_in_sight_the_shipped_courses_or_its_own(hostile):
    _refused(_attack(hostile, "attack-solutions"), READS)


def test_no_tcp_from_python_or_c(hostile):
    seen = _attack(hostile, "attack-tcp")
    _refused(seen, SOCKETS, "python")
    assert seen["c"].startswith("refused: [Errno 13]"), seen  # the kernel's own refusal of C's socket()
    with pytest.raises(BlockingIOError):
        hostile.listener.accept()


def test_no_unix_socket_to_a_server_by_path(hostile):
    _refused(_attack(hostile, "attack-unix-socket"), UNIX)
    with pytest.raises(BlockingIOError):
        hostile.unix.accept()


def test_the_tutors_scheduling_is_not_the_courses_to_change(hostile):
    me = os.getpid()
    before = os.getpriority(os.PRIO_PROCESS, me), os.sched_getaffinity(me), os.sched_getscheduler(me)
    seen = _attack(hostile, "attack-renice-parent")
    assert (os.getpriority(os.PRIO_PROCESS, me), os.sched_getaffinity(me), os.sched_getscheduler(me)) == before
    _refused(seen, SCHEDULING)


def _sysv_keys() -> set[int]:
    keys = set()
    for kind in ("shm", "sem"):
        with open(f"/proc/sysvipc/{kind}", encoding="utf-8") as f:
            keys |= {int(line.split()[0]) for line in f.readlines()[1:] if line.strip()}
    return keys


@pytest.mark.skipif(not os.path.exists("/proc/sysvipc/shm"), reason="no /proc/sysvipc here")
def test_no_system_v_memory_is_left_behind(hostile):
    _refused(_attack(hostile, "attack-sysv-shm"), SYSV)
    assert hostile.key not in _sysv_keys()


def test_no_posix_shared_memory_is_left_behind(hostile):
    _refused(_attack(hostile, "attack-posix-shm"), SHARED)
    assert not Path("/dev/shm", hostile.shm_name).exists()


def test_nothing_is_written_outside_the_run(hostile):
    _refused(_attack(hostile, "attack-write-outside"), WRITES)
    assert sorted(p.name for p in hostile.outside.iterdir()) == [".bashrc"]
    assert (hostile.outside / ".bashrc").read_text(encoding="utf-8") == "# the user's own\n"
    assert (hostile.home / "progress.json").read_text(encoding="utf-8") == '{"schema": 1, "exercises": {}}'


def test_no_environment_of_the_tutor_or_its_ancestors(hostile):
    seen = _attack(hostile, "attack-parent-environ")
    assert seen.pop("own environ") == "done: 'nothing'", seen  # an allow-list: the secret stays with the tutor
    _refused(seen, READS)


def test_the_tutor_is_not_the_courses_to_signal(hostile):
    got: list[int] = []
    previous = signal.signal(signal.SIGUSR2, lambda signum, frame: got.append(signum))
    try:
        seen = _attack(hostile, "attack-signal-tutor")
        time.sleep(0)  # a pending signal's handler runs here
    finally:
        signal.signal(signal.SIGUSR2, previous)
    assert got == [], seen
    _refused(seen, SIGNALS)


def test_the_compilation_cache_of_the_shipped_course_is_not_the_courses_to_change(hostile):
    """A run may write its cache (compiled code it loads next time): a course's runs get a cache of
    their own, so an entry planted there is never the shipped course's, nor another course's."""
    shipped = cache_dir_for(hostile.home, shipped_course_root())
    seen = _attack(hostile, "attack-compilation-cache")
    assert seen["cache"] not in ("", "None") and Path(seen["cache"]) != shipped, seen
    assert not (shipped / "planted-by-a-course").exists(), seen


def _left(name: str) -> list[int]:
    """The processes holding the bomb's marker file open."""
    pids = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and any(name in os.readlink(fd) for fd in (entry / "fd").iterdir()):
                pids.append(int(entry.name))
        except OSError:
            continue
    return pids


def test_a_fork_bomb_is_ended_and_leaves_nothing(hostile):
    verdict = hostile.box.run_cell(hostile.cells["attack-fork-bomb"]).result()
    assert (verdict.status, verdict.kind) == ("error", "processes"), (verdict.kind, verdict.message.en)
    ceiling = time.monotonic() + 120  # generous: the reaper ends the tree as the verdict is made
    while _left(hostile.bomb_name) and time.monotonic() < ceiling:
        time.sleep(0.5)
    left = _left(hostile.bomb_name)
    for pid in left:  # not contained: end them here, then fail
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    assert left == []
