"""Why a worker failed before any learner code ran, named from what it left: its stderr (and the
traceback it sent), how it ended, the tutor's environment and the host's resource limits (which
the worker inherits).

`classify(...)` is a pure function: one table of known causes (CAUSES), tried in order; the first
that recognises the failure words the message, and each says what to do about that cause alone.
"Reinstall" is the advice only where an import of the tutor's own packages failed. What needs
the file system or the process (the limits, the PYTHONPATH folders) is read by the caller:
HostLimits.read(), find_shadows().
"""

from __future__ import annotations

import os
import re
import signal
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from tutor.i18n import Bilingual
from tutor.sandbox.noise import is_noise
from tutor.sandbox.reaper import FILE_BYTES

# The variables of the tutor's environment that change how JAX starts in a worker.
SETTING_VARS = re.compile(r"^(JAX_|XLA_|LIBTPU|CUDA_VISIBLE_DEVICES$|LD_PRELOAD$)")

# The modules a worker imports before learner code, which a file or folder of the same name on
# PYTHONPATH would hide (the standard library's too: PYTHONPATH comes before it on sys.path).
NEEDED_MODULES = ("jax", "jaxlib", "numpy", "ml_dtypes", "opt_einsum", "scipy", "yaml", "platformdirs")
_ALWAYS_BLAMED = {"jax", "jaxlib", "numpy", "ml_dtypes"}  # hiding one of these breaks every start
# What the tutor is made of: a failed import of one of these is a broken install.
OWN_PACKAGES = {
    "tutor", "jax", "jaxlib", "numpy", "ml_dtypes", "opt_einsum", "scipy", "yaml", "platformdirs",
    "rich", "textual", "markdown_it", "textual_plotext", "tree_sitter", "tree_sitter_python",
}  # fmt: skip

GIB = 2**30
# JAX reserves address space it never touches: a CPU worker failed under `ulimit -v` 1.2 GB and
# started under 1.5 GB; on a TPU v5e, 4 GB hung its start. 8 GiB leaves room for a check's own use.
ADDRESS_SPACE_NEEDED = 8 * GIB
DATA_NEEDED = 4 * GIB  # the tutor's own bound on a check (Limits.memory_mb) where none is given


@dataclass(frozen=True)
class Limit:
    """One resource limit, soft and hard; None: unlimited. Bytes, except `ulimit -u` (a count)."""

    soft: int | None = None
    hard: int | None = None


@dataclass(frozen=True)
class HostLimits:
    """The limits of the tutor's own process, as the shell that started it set them: the worker
    inherits them (the reaper lowers its own bounds on data and file size to them)."""

    v: Limit = Limit()  # RLIMIT_AS: `ulimit -v`
    d: Limit = Limit()  # RLIMIT_DATA: `ulimit -d`
    f: Limit = Limit()  # RLIMIT_FSIZE: `ulimit -f`
    u: Limit = Limit()  # RLIMIT_NPROC, processes and threads of the user: `ulimit -u`

    @classmethod
    def read(cls) -> HostLimits:
        import resource

        def one(which: int) -> Limit:
            soft, hard = resource.getrlimit(which)
            return Limit(*(None if x == resource.RLIM_INFINITY else x for x in (soft, hard)))

        return cls(
            v=one(resource.RLIMIT_AS),
            d=one(resource.RLIMIT_DATA),
            f=one(resource.RLIMIT_FSIZE),
            u=one(resource.RLIMIT_NPROC),
        )


@dataclass(frozen=True)
class Shadow:
    """A file or folder on PYTHONPATH with the name of a module the worker needs."""

    module: str  # "jax"
    path: str  # "/home/me/play/jax"
    entry: str  # the PYTHONPATH entry it is in: "/home/me/play"


@dataclass(frozen=True)
class Cause:
    code: str  # CAUSES' name for it: "xla-flags", "shadow", "host-limit", "install", ...
    quote: str  # the line of the output that says what broke
    message: Bilingual


def setting_environment(environ: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """The variables (and values) of `environ` a classification reads: the settings and PYTHONPATH."""
    return tuple((k, v) for k, v in environ.items() if SETTING_VARS.match(k) or k == "PYTHONPATH")


# ------------------------------------------------------------------ what the parent reads for it


def _site_dirs() -> set[str]:
    """This Python's own package folders: an entry naming one hides nothing."""
    return {os.path.realpath(p) for p in sys.path if p.endswith(("site-packages", "dist-packages"))}


def _module_at(folder: str, name: str, listed: list[str]) -> str | None:
    """The module `name` would be found as in `folder` (a package or a module file), else None."""
    package = os.path.join(folder, name)
    if os.path.isfile(os.path.join(package, "__init__.py")):
        return package  # a folder without __init__.py is a namespace portion: it hides nothing
    for file in sorted(listed):
        if file.split(".")[0] == name and file.endswith((".py", ".pyc", ".so")):
            if os.path.isfile(os.path.join(folder, file)):
                return os.path.join(folder, file)
    return None


def find_shadows(pythonpath: str, names: tuple[str, ...] | None = None) -> tuple[Shadow, ...]:
    """The modules the worker needs (and the standard library's) that a folder of `pythonpath`
    would give it instead of the real ones; nothing is imported. Relative entries are left out
    (the worker starts in its run folder, where they mean something else), and so are this
    Python's own package folders."""
    wanted = set(names if names is not None else (*NEEDED_MODULES, *sys.stdlib_module_names))
    site = _site_dirs()
    found: list[Shadow] = []
    for entry in dict.fromkeys(pythonpath.split(os.pathsep)):
        if not os.path.isabs(entry) or os.path.realpath(entry) in site:
            continue
        try:
            listed = os.listdir(entry)
        except OSError:
            continue
        for name in sorted({n.split(".")[0] for n in listed} & wanted):
            path = _module_at(entry, name, listed)
            if path is not None:
                found.append(Shadow(name, path, entry))
    return tuple(found)


# ------------------------------------------------------------------ reading the output


_TRACEBACK = "Traceback (most recent call last):"
_GLOG_FATAL = re.compile(r"^F\d{4} \d\d:\d\d:\d+\.\d+\s+\d+ [\w./+-]+:\d+\] (.*)$", re.M)
_EXCEPTION = re.compile(r"^[A-Za-z_][\w.]*(?:: |:?$)")  # "ValueError: ...", "AssertionError"
_NOT_A_CAUSE = re.compile(
    r"^(?:\s*warnings\.warn\(|-{4,}|For simplicity, JAX has removed its internal frames"
    r"|\*\*\* |\s*@\s+0x|https://symbolize|PC: @|\s*\^+\s*$|\s)"
)


def real_error(text: str) -> str:
    """The line of `text` that says what broke (at most 300 characters): the reaper's own word,
    a fatal line of XLA's log, a Fatal Python error, an uncaught C++ exception, or the last
    traceback's exception; else the last line that is not start-up noise or a frame."""
    lines = [line.rstrip() for line in text.splitlines() if line.strip() and not is_noise(line)]
    found = ""
    reaper = [line for line in lines if line.startswith("reaper: ")]
    fatal = _GLOG_FATAL.findall("\n".join(lines))
    python_fatal = [line for line in lines if line.startswith("Fatal Python error: ")]
    thrown = [line.split("what():", 1)[1].strip() for line in lines if line.lstrip().startswith("what():")]
    if reaper:
        found = reaper[-1]
    elif fatal:
        found = fatal[0]  # the first: the process ends there
    elif python_fatal:
        found = python_fatal[0]
    elif thrown:
        found = f"C++ exception: {thrown[-1]}"
    elif _TRACEBACK in lines:
        last = len(lines) - 1 - lines[::-1].index(_TRACEBACK)
        found = next((line for line in lines[last + 1 :] if _EXCEPTION.match(line)), "")
    if not found:  # the exception of a traceback cut short (out of memory, say), else the last word
        found = next((line for line in reversed(lines) if _EXCEPTION.match(line)), "")
        found = found or next((line for line in reversed(lines) if not _NOT_A_CAUSE.match(line)), "")
    return found.strip()[:300]


def _ended(returncode: int | None) -> str:
    """How it ended, as a short technical quote that reads the same in every language."""
    if returncode is None:
        return "no exit status"
    if returncode < 0:
        name = signal.Signals(-returncode).name if -returncode in signal.valid_signals() else str(-returncode)
        return f"signal {name}"
    return f"exit status {returncode}"


_SIGNAL_HINTS = {
    "SIGKILL": (
        ": something ended it from outside, e.g. the system running out of memory",
        "：它被外部终止，例如系统内存耗尽",
    ),
    "SIGSEGV": (": a crash in native code", "：原生代码崩溃"),
    "SIGABRT": (": native code aborted", "：原生代码中止"),
}


# ------------------------------------------------------------------ the facts a cause is read from


@dataclass(frozen=True)
class Facts:
    text: str  # all the worker said: stderr and its startup error's text
    quote: str  # real_error(text), or how it ended
    said: bool  # the quote is from the text (not how it ended)
    returncode: int | None
    env: Mapping[str, str | None]  # settings and PYTHONPATH (None: set, value unknown)
    limits: HostLimits
    shadows: tuple[Shadow, ...]
    memory_limit_mb: int  # the tutor's own bound on a check (0: none)
    timed_out_s: float  # > 0: it did not get ready in this many seconds

    def value(self, name: str) -> str:
        return (self.env.get(name) or "")[:200]

    def shown(self, name: str) -> str:
        """NAME=value, or NAME where the value is not known."""
        value = self.env.get(name)
        return f"{name}={value[:200]}" if value is not None else name

    @property
    def settings(self) -> list[str]:
        """The setting variables, those the quote names first."""
        names = [k for k in self.env if SETTING_VARS.match(k)]
        return sorted(names, key=lambda k: (k not in self.quote, k))


Words = tuple[str, str, str, str]  # what broke (en, zh), what to do (en, zh)


def _search(pattern: str, text: str, flags: int = 0) -> re.Match[str] | None:
    return re.search(pattern, text, flags)


# ---- settings


def _xla_flags(f: Facts) -> Words | None:
    m = _search(r"Unknown flags? in XLA_FLAGS: *(.*)", f.text)
    if not m:
        return None
    flags, shown = m.group(1).strip()[:200], f.shown("XLA_FLAGS")
    return (
        f"XLA stopped at a flag it does not know in XLA_FLAGS ({flags}; your shell sets {shown})",
        f"XLA 遇到了 XLA_FLAGS 中它不认识的参数（{flags}；你的 shell 设置了 {shown}），随即停止",
        "remove it from XLA_FLAGS (it may belong to another version of XLA), or start the tutor without "
        "XLA_FLAGS: `env -u XLA_FLAGS jaxstate-tutor ...`",
        "请把它从 XLA_FLAGS 中删去（它可能属于另一个版本的 XLA），或者不带 XLA_FLAGS 启动本教程："
        "`env -u XLA_FLAGS jaxstate-tutor ...`",
    )


def _bad_value(var: str, f: Facts) -> Words:
    shown_en, shown_zh = (f" ({f.shown(var)})", f"（{f.shown(var)}）") if f.env.get(var) is not None else ("", "")
    return (
        f"JAX does not accept the value your shell gives {var}{shown_en}: {f.quote}",
        f"JAX 不接受你的 shell 给 {var} 设的值{shown_zh}：{f.quote}",
        f"correct it or unset it, e.g. `env -u {var} jaxstate-tutor ...`",
        f"请改正或取消这个设置，例如 `env -u {var} jaxstate-tutor ...`",
    )


def _truth_value(f: Facts) -> Words | None:
    m = _search(r"invalid truth value '.*?' for environment '(\w+)'", f.text)
    return _bad_value(m.group(1), f) if m else None


def _named_setting(f: Facts) -> Words | None:
    """The error names a variable the shell sets (JAX_DEFAULT_DTYPE_BITS=7, say)."""
    named = [k for k in f.settings if re.search(rf"\b{k}\b", f.quote)]
    return _bad_value(named[0], f) if named else None


# ---- the accelerator

# A TPU another process holds (libtpu admits one process at a time, and a chip just released
# refuses a new owner for a few seconds): the sandbox waits and tries again (tpu_busy).
_TPU_BUSY = (
    r"TPU is already in use by process with pid (\d+)|libtpu multi-process lockfile|TPU[^\n]*(?:in use|busy)"
    r"|/dev/accel\d*[^\n]*(?:busy|in use)"
)
_BUSY = re.compile(
    _TPU_BUSY + r"|all CUDA-capable devices are busy or unavailable|CUDA_ERROR_OUT_OF_MEMORY"
    r"|cudaErrorMemoryAllocation|CUDA out of memory|CUDA_ERROR_DEVICE_UNAVAILABLE"
)


def tpu_busy(text: str) -> bool:
    """Whether a worker's output says another process holds the TPU: worth waiting for."""
    return re.search(_TPU_BUSY, text) is not None


_BACKEND = re.compile(r"Unable to initialize backend '(\w+)'|Backend '(\w+)' is not in the list of known backends")
_ACCELERATOR = re.compile(
    r"Unable to initialize backend '(?:tpu|cuda|gpu|rocm)'|Failed to open libtpu|TPU initialization failed"
    r"|No TPU platform|TPU backend initialization is taking more than|cuInit\(0\) failed|CUDA_ERROR_NO_DEVICE"
    r"|CUDA_ERROR_NOT_INITIALIZED|Unable to load cu(?:DNN|BLAS|SPARSE|FFT)|libcuda\.so"
)
_ACCELERATOR_WORDS = (
    "end any other program that uses it (a notebook, a training run, another tutor) and try again, or run "
    "the tutor without `--accelerator`, so that checks run on the CPU (enough for every exercise)",
    "请结束其他正在使用它的程序（例如笔记本、训练任务或另一个本教程）后再试，或者不加 `--accelerator` "
    "运行本教程，让检查在 CPU 上运行（每个练习用 CPU 都足够）",
)


def _device(text: str) -> str:
    return "TPU" if re.search(r"TPU|libtpu|'tpu'", text) else "GPU"


def _accelerator_busy(f: Facts) -> Words | None:
    m = _BUSY.search(f.text)
    if not m:
        return None
    if _device(m.group(0)) == "GPU":  # GPUs are shared: what another process holds is their memory
        return (
            f"the GPU has no memory to spare for the worker: another process most likely holds it ({f.quote})",
            f"GPU 没有剩余内存可供工作进程使用：很可能是另一个进程占用了它（{f.quote}）",
            *_ACCELERATOR_WORDS,
        )
    by_en, by_zh = (f" (pid {m.group(1)})", f"（进程号 {m.group(1)}）") if m.group(1) else ("", "")
    return (
        f"the TPU is held by another process{by_en}, and one program at a time can use it ({f.quote})",
        f"TPU 正被另一个进程{by_zh}占用，而同一时间只能有一个程序使用它（{f.quote}）",
        *_ACCELERATOR_WORDS,
    )


def _platforms(f: Facts) -> Words | None:
    """JAX_PLATFORMS names a backend that cannot start here (it reaches the worker with `--accelerator`)."""
    wanted = [p.strip() for p in (f.env.get("JAX_PLATFORMS") or "").lower().split(",") if p.strip()]
    if not wanted:
        return None
    m = _BACKEND.search(f.text)
    failed = (m.group(1) or m.group(2)).lower() if m else ""
    aliases = {failed, *({"cuda", "rocm"} if failed == "gpu" else {"gpu"} if failed in ("cuda", "rocm") else ())}
    # JAX 0.10 on a machine without the platform asked for: no backend at all, an AssertionError
    nothing = re.search(r"assert _default_backend is not None", f.text)
    if not (aliases & set(wanted) or nothing):
        return None
    backend = failed or ",".join(wanted)
    shown = f.shown("JAX_PLATFORMS")
    return (
        f"your shell sets {shown}, and JAX could not start the '{backend}' backend on this machine ({f.quote})",
        f"你的 shell 设置了 {shown}，但 JAX 无法在这台机器上启动 '{backend}' 后端（{f.quote}）",
        "unset it (`env -u JAX_PLATFORMS jaxstate-tutor ...`): the tutor picks the platform itself "
        "(the CPU, or with `--accelerator` the GPU or TPU it finds)",
        "请取消这个设置（`env -u JAX_PLATFORMS jaxstate-tutor ...`）：本教程会自己选择平台"
        "（默认用 CPU，加 `--accelerator` 时用它找到的 GPU 或 TPU）",
    )


def _accelerator(f: Facts) -> Words | None:
    m = _ACCELERATOR.search(f.text)
    if not m:
        return None
    device = _device(m.group(0))
    if f.timed_out_s:
        what_en = f"it did not get ready in {f.timed_out_s:g} s: the {device} did not start ({f.quote})"
        what_zh = f"它在 {f.timed_out_s:g} 秒内没有就绪：{device} 没能启动（{f.quote}）"
    else:
        what_en = f"JAX could not start the {device} ({f.quote})"
        what_zh = f"JAX 无法启动 {device}（{f.quote}）"
    return (
        f"{what_en}; another process may be holding it",
        f"{what_zh}；可能有另一个进程正占用着它",
        *_ACCELERATOR_WORDS,
    )


# ---- PYTHONPATH


def _blamed_shadows(f: Facts) -> list[Shadow]:
    """The shadows found on PYTHONPATH (by the caller, or in the traceback's file names) that this
    failure points at: jax, jaxlib, numpy always; another when its path or name is in the error."""
    shadows = list(f.shadows)
    entries = [e for e in (f.env.get("PYTHONPATH") or "").split(os.pathsep) if os.path.isabs(e)]
    for path in re.findall(r'File "([^"]+)"', f.text):
        for entry in entries:
            rest = os.path.relpath(path, entry) if path.startswith(entry.rstrip(os.sep) + os.sep) else ""
            module = rest.split(os.sep)[0].split(".")[0]
            if module in NEEDED_MODULES and not any(s.module == module for s in shadows):
                first = rest.split(os.sep)[0]
                shadows.append(Shadow(module, os.path.join(entry, first), entry))
    return [
        s
        for s in shadows
        if s.module in _ALWAYS_BLAMED or s.path in f.text or re.search(rf"'{s.module}'|\b{s.module}\.\w", f.quote)
    ]


def _shadow(f: Facts) -> Words | None:
    blamed = _blamed_shadows(f)
    if not blamed:
        return None
    s = blamed[0]
    more_en = (
        f" (and {len(blamed) - 1} more of its kind: {', '.join(b.path for b in blamed[1:3])})" if blamed[1:] else ""
    )
    more_zh = f"（同类的还有 {len(blamed) - 1} 个：{'，'.join(b.path for b in blamed[1:3])}）" if blamed[1:] else ""
    return (
        f"`{s.path}` on your PYTHONPATH (in its entry `{s.entry}`) hides the real {s.module}, so the worker "
        f"imported the wrong one ({f.quote}){more_en}",
        f"你的 PYTHONPATH 中的 `{s.path}`（在其中的 `{s.entry}` 里）遮住了真正的 {s.module}，工作进程导入了错误的模块"
        f"（{f.quote}）{more_zh}",
        f"rename or remove `{s.path}`, or take `{s.entry}` out of PYTHONPATH; or start the tutor without "
        "PYTHONPATH: `env -u PYTHONPATH jaxstate-tutor ...`",
        f"请重命名或删除 `{s.path}`，或把 `{s.entry}` 从 PYTHONPATH 中去掉；也可以不带 PYTHONPATH 启动本教程："
        "`env -u PYTHONPATH jaxstate-tutor ...`",
    )


_HIDDEN = re.compile(
    r"'(\w+)' is not a package|module '(\w+)' has no attribute"
    r"|partially initialized module '(\w+)'|cannot import name '\w+' from '(\w+)' \(unknown location\)"
)


def _shadow_somewhere(f: Facts) -> Words | None:
    """The error says a module the worker needs is not the real one, and PYTHONPATH is set, but
    no folder of it was found holding it (a relative entry, say)."""
    pythonpath = f.env.get("PYTHONPATH")
    m = _HIDDEN.search(f.text)
    module = next((g for g in m.groups() if g), "") if m else ""
    if not m or not pythonpath or module not in (*NEEDED_MODULES, *sys.stdlib_module_names):
        return None
    said = next(line for line in f.text.splitlines() if m.group(0) in line).strip()[:300]
    return (
        f"a module named {module} on your PYTHONPATH ({pythonpath[:200]}) seems to hide the real {module} ({said})",
        f"你的 PYTHONPATH（{pythonpath[:200]}）中似乎有一个名为 {module} 的模块遮住了真正的 {module}（{said}）",
        f"look in those folders for a `{module}.py` or a `{module}` folder and rename it, or start the tutor "
        "without PYTHONPATH: `env -u PYTHONPATH jaxstate-tutor ...`",
        f"请在这些文件夹中找出 `{module}.py` 或名为 `{module}` 的文件夹并重命名，或者不带 PYTHONPATH 启动本教程："
        "`env -u PYTHONPATH jaxstate-tutor ...`",
    )


# ---- the host's limits

_MEMORY = re.compile(
    r"MemoryError|bad_alloc|[Cc]annot allocate memory|failed to map segment|[Oo]ut of memory|RESOURCE_EXHAUSTED"
    r"|mmap\(\) failed|\[Errno 12\]"
)
_THREADS = re.compile(
    r"pthread_create|can't start new thread|Resource temporarily unavailable|fork: retry|\[Errno 11\]"
)
_FILE_SIZE = re.compile(r"File too large|\[Errno 27\]|EFBIG")
_CRASHES = {-signal.SIGSEGV, -signal.SIGABRT, -signal.SIGBUS}
# What each limit is, and what the tutor needs of it.
_LIMIT_NAMES = {
    "v": ("address space", "地址空间"),
    "d": ("data", "数据段"),
    "f": ("file size", "文件大小"),
}
_NEEDS = {
    "v": (
        "below the {size} of address space JAX needs (it reserves much that it never uses)",
        "低于 JAX 所需的 {size} 地址空间（它会预留大量从不使用的地址空间）",
    ),
    "d": ("below the {size} the tutor allows each check", "低于本教程允许每次检查使用的 {size}"),
    "f": (
        "below the {size} the tutor allows each file a check writes",
        "低于本教程允许每次检查写入的单个文件大小 {size}",
    ),
}


def _needed(letter: str, f: Facts) -> int:
    if letter == "v":
        return ADDRESS_SPACE_NEEDED
    if letter == "d":
        return f.memory_limit_mb * 2**20 if f.memory_limit_mb else DATA_NEEDED
    return FILE_BYTES


def _low(letters: str, f: Facts) -> list[str]:
    """Of `letters`, the limits the worker ran under (the soft one: the reaper never raises it)
    that are below what it needs."""
    return [x for x in letters if (soft := getattr(f.limits, x).soft) is not None and soft < _needed(x, f)]


def _size(n: int) -> str:
    if n < GIB:
        return f"{n // 2**20} MB"
    return f"{n // GIB} GiB" if n % GIB == 0 or n >= 10 * GIB else f"{n / GIB:.1f} GiB"


def _limit_words(letters: list[str], f: Facts) -> Words:
    what_en, what_zh, do_en, do_zh = [], [], [], []
    for x in letters:
        limit = getattr(f.limits, x)
        need, soft = _needed(x, f), limit.soft or 0
        name_en, name_zh = _LIMIT_NAMES[x]
        need_en, need_zh = _NEEDS[x]
        what_en.append(
            f"your shell's `ulimit -{x}` ({name_en}) is {soft // 1024} KB (about {_size(soft)}), "
            + need_en.format(size=_size(need))
        )
        what_zh.append(
            f"你的 shell 的 `ulimit -{x}`（{name_zh}）为 {soft // 1024} KB（约 {_size(soft)}），"
            + need_zh.format(size=_size(need))
        )
        if limit.hard is not None and limit.hard < need:
            do_en.append(
                f"this shell cannot raise it above its hard limit (`ulimit -H{x}`: {limit.hard // 1024} KB): start "
                f"the tutor from a new shell that has no such limit; if every new shell has it, it is set for your "
                "account, and only the machine's administrator can raise it (e.g. in /etc/security/limits.conf): "
                f"ask them for at least {need // 1024} KB, or use another machine"
            )
            do_zh.append(
                f"这个 shell 无法把它提高到硬上限（`ulimit -H{x}`：{limit.hard // 1024} KB）以上：请在没有这项限制的"
                "新 shell 中启动本教程；如果每个新 shell 都有这项限制，那它是为你的账户设置的，只有机器管理员才能提高"
                f"（例如在 /etc/security/limits.conf 中）：请让管理员提高到至少 {need // 1024} KB，或者换一台机器"
            )
        else:
            do_en.append(
                f"raise it in the shell that starts the tutor (`ulimit -{x} unlimited`, or at least "
                f"`ulimit -{x} {need // 1024}`), then start the tutor from that shell"
            )
            do_zh.append(
                f"请在启动本教程的 shell 中提高它（`ulimit -{x} unlimited`，或至少 `ulimit -{x} {need // 1024}`），"
                "再从这个 shell 启动本教程"
            )
    return ("; ".join(what_en), "；".join(what_zh), "; ".join(do_en), "；".join(do_zh))


def _with_quote(words: Words, quote: str) -> Words:
    what_en, what_zh, do_en, do_zh = words
    return (f"{what_en} ({quote})", f"{what_zh}（{quote}）", do_en, do_zh)


def _reaper_refused(f: Facts) -> Words | None:
    """A reaper that would not start its worker under the host's limits (one that tried to raise one)."""
    if not re.search(r"reaper: could not start the worker: .*(?:raise maximum limit|Operation not permitted)", f.text):
        return None
    low = _low("df", f)
    if not low:
        return None
    return _with_quote(_limit_words(low, f), f.quote)


def _memory_limit(f: Facts) -> Words | None:
    low = _low("vd", f)
    crashed = f.returncode in _CRASHES or f.returncode == 127  # 127: the loader could not map a library
    if not low or not (_MEMORY.search(f.text) or _THREADS.search(f.text) or crashed or f.timed_out_s):
        return None
    return _with_quote(_limit_words(low, f), f.quote)


def _file_limit(f: Facts) -> Words | None:
    low = _low("f", f)
    if not low or not (_FILE_SIZE.search(f.text) or f.returncode == -signal.SIGXFSZ):
        return None
    return _with_quote(_limit_words(low, f), f.quote)


def _threads(f: Facts) -> Words | None:
    m = _THREADS.search(f.text)
    if not m:
        return None
    line = next(ln for ln in f.text.splitlines() if m.group(0) in ln).strip()[:300]  # JAX fails elsewhere too
    count = f.limits.u.soft
    is_en, is_zh = (f", which is {count} here", f"，这里为 {count}") if count is not None else ("", "")
    return (
        f"the system refused it another thread or process ({line}): your user has reached its limit on "
        f"processes and threads (see `ulimit -u`{is_en}), or the machine its own",
        f"系统拒绝为它再创建线程或进程（{line}）：你的用户已达到进程和线程数的上限（见 `ulimit -u`{is_zh}），"
        "或者机器已达到它自身的上限",
        "close other programs, or raise the limit in the shell that starts the tutor (e.g. `ulimit -u 4096`), "
        "then try again",
        "请关闭其他程序，或在启动本教程的 shell 中提高上限（例如 `ulimit -u 4096`），然后再试",
    )


def _out_of_memory(f: Facts) -> Words | None:
    if not _MEMORY.search(f.text):
        return None
    return (
        f"the machine ran out of memory while the worker started ({f.quote})",
        f"工作进程启动时机器内存不足（{f.quote}）",
        "close other programs that use much memory (or wait for them to end), then try again",
        "请关闭占用大量内存的其他程序（或等它们结束）后再试",
    )


# ---- the install

_IMPORT_FAILED = re.compile(
    r"No module named '([\w.]+)'|cannot import name '\w+' from '([\w.]+)'"
    r"|ImportError: .*?(?:undefined symbol|initializing the extension|failed to import|DLL load failed)"
    r"|jaxlib version [\w.]+ is (?:older|newer)|(?:jax|jaxlib) requires (?:jax|jaxlib)"
    r"|incompatible (?:jax|jaxlib)|version of jaxlib"
)


def _install(f: Facts) -> Words | None:
    """An import of the tutor's own packages (or of what they need) failed: the only cause whose
    fix is to reinstall."""
    for m in _IMPORT_FAILED.finditer(f.text):
        module = m.group(1) or m.group(2)
        if module is None or module.split(".")[0] in OWN_PACKAGES:
            break
    else:
        return None
    return (
        f"an import of the tutor's own packages failed ({f.quote}): its installation is incomplete or broken",
        f"导入本教程自身所需的包时失败（{f.quote}）：安装不完整或已损坏",
        "reinstall the tutor and its JAX in the Python environment that runs it (`pip install -e .` in the "
        "tutor's folder), then try again",
        "请在运行本教程的 Python 环境中重新安装本教程及其 JAX（在本教程的文件夹中运行 `pip install -e .`）后再试",
    )


# ---- none of those


def _unknown(f: Facts) -> Words:
    names = f.settings
    if f.timed_out_s:
        what_en = f"it did not get ready in {f.timed_out_s:g} s (the JAX import was too slow, or stuck)"
        what_zh = f"它在 {f.timed_out_s:g} 秒内没有就绪（JAX 导入太慢或卡住了）"
    elif f.said:
        what_en = what_zh = f.quote
    else:
        hint_en, hint_zh = _SIGNAL_HINTS.get(f.quote.removeprefix("signal "), ("", ""))
        what_en = f"it ended before it was ready, with {f.quote}{hint_en}, and said nothing of why"
        what_zh = f"它在就绪之前就结束了（{f.quote}{hint_zh}），没有说明原因"
    report_en = "please report it with the error output (`jaxstate-tutor check ID --json` shows all of it)"
    report_zh = "请连同错误输出一起报告这个问题（`jaxstate-tutor check 练习ID --json` 会给出全部输出）"
    if names:
        change_en, them_en, them_zh = ("changes", "it", "它") if len(names) == 1 else ("change", "them", "它们")
        do_en = (
            f"your shell sets {', '.join(names)}, which {change_en} how JAX starts: try without {them_en} "
            f"(e.g. `env -u {names[0]} jaxstate-tutor ...`); if it still fails, {report_en}"
        )
        do_zh = (
            f"你的 shell 设置了 {'、'.join(names)}，{them_zh}会改变 JAX 的启动方式：请去掉{them_zh}再试"
            f"（例如 `env -u {names[0]} jaxstate-tutor ...`）；若仍失败，{report_zh}"
        )
    elif f.timed_out_s:
        do_en = f"try again (a very busy machine makes the start slow); if it keeps happening, {report_en}"
        do_zh = f"请再试一次（机器非常繁忙时启动会很慢）；若一再发生，{report_zh}"
    else:
        do_en, do_zh = f"try again; if it fails again, {report_en}", f"请再试一次；若仍失败，{report_zh}"
    return what_en, what_zh, do_en, do_zh


# The known causes, first match wins: what names a setting or a device outright first, then the
# host's limits, what hides a module, and the install last (then: none of those, _unknown).
CAUSES: tuple[tuple[str, Callable[[Facts], Words | None]], ...] = (
    ("xla-flags", _xla_flags),  # XLA aborts: Unknown flags in XLA_FLAGS
    ("setting", _truth_value),  # JAX_ENABLE_X64=maybe
    ("accelerator-busy", _accelerator_busy),  # another process holds the TPU / GPU
    ("jax-platforms", _platforms),  # JAX_PLATFORMS=cuda on a machine without one
    # the host's limits before the accelerator: under a small `ulimit -v` a TPU's start hangs
    ("host-limit", _reaper_refused),  # `ulimit -d` / `-f` below the reaper's bounds (an older reaper)
    ("host-limit", _memory_limit),  # `ulimit -v` / `-d` too small for JAX
    ("host-limit", _file_limit),  # `ulimit -f` too small for the compilation cache
    ("accelerator", _accelerator),  # the TPU / GPU would not start
    ("shadow", _shadow),  # a jax/, numpy.py ... on PYTHONPATH
    ("shadow", _shadow_somewhere),  # the same, where it is not found
    ("setting", _named_setting),  # the error names a JAX_* / XLA_* variable the shell sets
    ("threads", _threads),  # `ulimit -u` reached
    ("out-of-memory", _out_of_memory),  # no limit of ours: the machine itself
    ("install", _install),  # an import of the tutor's own packages failed: reinstall
)


def startup_message(what_en: str, what_zh: str, do_en: str, do_zh: str) -> Bilingual:
    """A worker that broke before any learner code ran: what broke and what to do, no advice on code."""
    return Bilingual(
        en="the tutor could not start its worker, so your code did not run and nothing was judged "
        f"(this is not a fault in your code): {what_en}. To fix: {do_en}",
        zh=f"检查程序的工作进程没能启动，你的代码没有运行，也没有任何评判（问题不在你的代码）：{what_zh}。解决办法：{do_zh}",
    )


def classify(
    text: str,
    returncode: int | None,
    env: Mapping[str, str | None],
    limits: HostLimits = HostLimits(),
    shadows: tuple[Shadow, ...] = (),
    memory_limit_mb: int = 0,
    timed_out_s: float = 0.0,
) -> Cause:
    """Why a worker broke before any learner code ran, and the message that says so.

    `text`: what it said (its stderr, and the text of its startup error event); `returncode`: its
    exit status (negative: the signal); `env`: the setting variables and PYTHONPATH of the
    tutor's environment (setting_environment); `limits`: the host's (HostLimits.read());
    `shadows`: find_shadows(PYTHONPATH); `memory_limit_mb`: the tutor's own bound on a check;
    `timed_out_s`: > 0 when it never got ready within that time."""
    said = real_error(text)
    quote = said or (f"not ready after {timed_out_s:g} s" if timed_out_s else _ended(returncode))
    facts = Facts(text, quote, bool(said), returncode, env, limits, shadows, memory_limit_mb, timed_out_s)
    for code, test in CAUSES:
        words = test(facts)
        if words is not None:
            return Cause(code, quote, startup_message(*words))
    return Cause("unknown", quote, startup_message(*_unknown(facts)))
