"""What `doctor` reports: findings and the report, their JSON shape, and their words.

Pure data, no JAX and no Textual: the probe (inside the worker) builds these, the CLI and
the TUI read them back from JSON. Every text exists in English and Chinese.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tutor.i18n import Bilingual

KINDS = ("retrace", "key-reuse", "side-effect", "donation", "host-sync", "nan")
STATUSES = ("ok", "findings", "error", "timeout")


@dataclass(frozen=True)
class Teaching:
    """Where the course teaches the fix: a lesson id and, when one shows it, a demo cell id."""

    lesson: str | None
    cell: str | None


# (kind, reason) -> the lesson and cell that teach the fix. test_doctor asserts every id exists.
TEACHES: dict[tuple[str, str], Teaching] = {
    ("retrace", "weak-type"): Teaching("6.8", "l68-typed-start"),
    ("retrace", "shape"): Teaching("6.7", "l67-jit-structure"),
    ("retrace", "structure"): Teaching("6.7", "l67-jit-structure"),
    ("retrace", "static"): Teaching("6.6", "l66-dynamic-lr"),
    ("retrace", "new-function"): Teaching("6.3", "l63-jit-counter"),
    ("retrace", "unexplained"): Teaching("6.6", "l66-dynamic-lr"),
    ("key-reuse", "reused"): Teaching("6.5", "l65-prng-state"),
    ("side-effect", "global"): Teaching("6.3", "l63-functional-counter"),
    ("side-effect", "mutation"): Teaching("6.2", "l62-attr-fix"),
    ("side-effect", "print"): Teaching("6.1", "l61-debug-print"),
    ("donation", "unusable"): Teaching("6.6", "l66-donate-unusable"),
    ("donation", "deleted"): Teaching("6.6", "l66-donate"),
    ("host-sync", "per-step"): Teaching("6.5", "l65-pure-counter"),
    ("nan", "first"): Teaching(None, None),  # no lesson is about NaN; the finding stands alone
}

# Why each kind of problem costs the learner something, in their terms.
WHY: dict[tuple[str, str], Bilingual] = {
    ("retrace", "weak-type"): Bilingual(
        en="The first call got a weakly typed value (a Python number), later calls a typed array, so "
        "JAX compiled the function again. Start the state with its final dtype (jnp.float32(0.0), "
        "jnp.zeros_like).",
        zh="第一次调用传入的是弱类型的值（Python 数字），之后传入的是有确定 dtype 的数组，于是 JAX "
        "又编译了一遍。初始状态直接给出最终的 dtype（jnp.float32(0.0)、jnp.zeros_like）。",
    ),
    ("retrace", "shape"): Bilingual(
        en="Each new shape or dtype is a new program: JAX traces and compiles again, every time. Keep "
        "shapes fixed (pad the last batch, or drop it).",
        zh="每出现一种新的形状或 dtype，就是一个新程序：JAX 每次都要重新追踪、重新编译。让形状保持不变"
        "（把最后一个批次补齐，或者丢掉）。",
    ),
    ("retrace", "structure"): Bilingual(
        en="The argument's PyTree structure changed (keys, fields, list length), and each structure is "
        "compiled separately. Give the state the same structure on every call.",
        zh="参数的 PyTree 结构变了（键、字段、列表长度），每种结构都要单独编译一次。让状态在每次调用时结构都一样。",
    ),
    ("retrace", "static"): Bilingual(
        en="A static argument took a new value, and every new value costs a full compile. Static is for "
        "structure (shapes, flags); pass numbers such as a learning rate as ordinary arguments.",
        zh="静态参数换了一个新值，每个新值都要完整编译一次。静态参数只适合结构（形状、开关）；学习率这样"
        "的数值应作为普通参数传入。",
    ),
    ("retrace", "new-function"): Bilingual(
        en="jax.jit is applied to a new function object on every pass (jit inside a loop, or a lambda made "
        "per call), so the compile cache never hits. Jit once, outside the loop, and call the result.",
        zh="每一轮都对一个新的函数对象调用 jax.jit（在循环里 jit，或每次新建一个 lambda），编译缓存永远"
        "命中不了。在循环外 jit 一次，然后反复调用它。",
    ),
    ("retrace", "unexplained"): Bilingual(
        en="JAX compiled it again without saying why (on this JAX version that is usually a new value for "
        "a static argument). Each retrace costs a full compile.",
        zh="JAX 又编译了一遍，却没有说明原因（在这个 JAX 版本上，通常是静态参数换了新值）。每次重新追踪"
        "都要付出一次完整编译的代价。",
    ),
    ("key-reuse", "reused"): Bilingual(
        en="A key that was already consumed gives the same random numbers again: your 'new' noise, "
        "dropout mask or sample repeats. Split the key and use each subkey once.",
        zh="已经用过的 key 会再次给出同样的随机数：你以为的“新”噪声、dropout 掩码或样本其实是重复的。"
        "先 split，每个子 key 只用一次。",
    ),
    ("side-effect", "global"): Bilingual(
        en="That assignment ran once, at trace time; later calls run the compiled program and skip it, "
        "so the global stops changing. Return the new value instead.",
        zh="这次赋值只在追踪时执行了一次；之后的调用运行的是编译好的程序，会跳过它，全局变量也就不再变化。"
        "改为把新值作为返回值交出去。",
    ),
    ("side-effect", "mutation"): Bilingual(
        en="That change happened once, at trace time, and what it stored may be a tracer, not a value. "
        "Take the state in as an argument and return the new state.",
        zh="这次修改只在追踪时发生了一次，而且存进去的可能是 tracer，而不是数值。把状态作为参数传入，再把新状态返回。",
    ),
    ("side-effect", "print"): Bilingual(
        en="A Python print runs only while tracing: it shows tracers, once per trace, and stays silent on "
        "later calls. Use jax.debug.print to see values on every call.",
        zh="Python 的 print 只在追踪时执行：它打印的是 tracer，每次追踪只打印一次，之后的调用不再输出。"
        "想在每次调用时看到数值，用 jax.debug.print。",
    ),
    ("donation", "unusable"): Bilingual(
        en="You donated these buffers but no output could reuse them (a different shape or dtype), so the "
        "memory is not saved. Donate the state that the step returns in the same form.",
        zh="这些缓冲区被捐赠了，但没有哪个输出能复用它们（形状或 dtype 不同），所以并没有省下内存。"
        "只捐赠那份会以同样形式返回的状态。",
    ),
    ("donation", "deleted"): Bilingual(
        en="An array was used after it was donated: its buffer now belongs to the call's output. Rebind "
        "the name to the returned state at once (state = step(state, ...)).",
        zh="一个数组在被捐赠之后又被使用了：它的缓冲区已经归这次调用的输出所有。调用后立即把名字重新绑定"
        "到返回的状态上（state = step(state, ...)）。",
    ),
    ("host-sync", "per-step"): Bilingual(
        en="Every step pulls a value from the device to Python (float(), .item(), np.asarray): the loop "
        "waits for the device each time instead of queueing work ahead. Keep values on the device and "
        "read them every N steps, or collect them with lax.scan.",
        zh="每一步都把一个值从设备拉回 Python（float()、.item()、np.asarray）：循环每次都要等设备算完，"
        "没法提前排队后续的计算。让数值留在设备上，每隔 N 步读一次，或用 lax.scan 收集起来。",
    ),
    ("nan", "first"): Bilingual(
        en="From here on the values are NaN or inf, and everything computed from them is too. Look at "
        "this operation's inputs (a log of 0, a division by 0, a step size that diverges).",
        zh="从这里开始数值变成了 NaN 或 inf，之后由它算出的一切也都是。检查这个运算的输入（对 0 取 "
        "log、除以 0、发散的步长）。",
    ),
}


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"


def _what(kind: str, reason: str, fn: str, count: int, details: dict[str, Any]) -> Bilingual:
    """The first sentence of a finding: what was seen, how often."""
    d = details
    if kind == "retrace":
        seen = d.get("explanation", "")
        if reason == "new-function":
            return Bilingual(
                en=f"`{fn}` was jitted and traced anew {count} more times at this line.",
                zh=f"`{fn}` 在这一行被重新 jit 并追踪了 {count} 次。",
            )
        return Bilingual(
            en=f"`{fn}` was traced again {_times(count)} from this call{': ' + seen if seen else ''}.",
            zh=f"`{fn}` 在这次调用处被重新追踪了 {count} 次{'：' + seen if seen else ''}。",
        )
    if kind == "key-reuse":
        first = d.get("first_line")
        if first == d.get("line"):
            return Bilingual(
                en=f"A PRNG key consumed at this line on an earlier pass was consumed here again, {_times(count)}.",
                zh=f"同一个 PRNG key 在这一行之前的某一轮已经用过，这里又被使用了 {count} 次。",
            )
        where_en = f" (first consumed at line {first})" if first else ""
        where_zh = f"（第一次在第 {first} 行被使用）" if first else ""
        return Bilingual(
            en=f"A PRNG key already consumed{where_en} was consumed again here, {_times(count)}.",
            zh=f"一个已经用过的 PRNG key{where_zh or ' '}在这里又被使用了 {count} 次。",
        )
    if kind == "side-effect":
        name = d.get("name", "")
        if reason == "print":
            return Bilingual(
                en=f"print was called while `{fn}` was being traced ({_times(count)}).",
                zh=f"`{fn}` 被追踪时调用了 print（{count} 次）。",
            )
        if reason == "global":
            return Bilingual(
                en=f"The global `{name}` was rebound while `{fn}` was being traced.",
                zh=f"`{fn}` 被追踪时，全局变量 `{name}` 被重新赋值。",
            )
        return Bilingual(
            en=f"`{name}` was changed in place while `{fn}` was being traced.",
            zh=f"`{fn}` 被追踪时，`{name}` 被原地修改。",
        )
    if kind == "donation":
        if reason == "deleted":
            return Bilingual(
                en="A donated array was used after the call that consumed it.",
                zh="一个被捐赠的数组在消耗它的调用之后又被使用了。",
            )
        types = d.get("types", "")
        return Bilingual(
            en=f"Donated buffers were not usable: {types} ({count} compile(s)).",
            zh=f"被捐赠的缓冲区没能被复用：{types}（编译 {count} 次）。",
        )
    if kind == "host-sync":
        via = d.get("via", "")
        loop = f" in the loop around `{fn}`" if fn else " in a loop"
        loop_zh = f"在调用 `{fn}` 的循环里" if fn else "在循环里"
        return Bilingual(
            en=f"A device value was pulled to the host ({via}) {count} times at this line{loop}.",
            zh=f"{loop_zh}，这一行把设备上的值拉回主机（{via}）共 {count} 次。",
        )
    if kind == "nan":
        prim = d.get("primitive", "")
        return Bilingual(en=f"The first NaN/inf came out of `{prim}`.", zh=f"第一个 NaN/inf 出自 `{prim}`。")
    raise ValueError(f"unknown finding kind {kind!r}")


@dataclass
class Finding:
    """One problem at one place in the learner's script: kind, function, file:line, how often."""

    kind: str
    function: str | None
    file: str
    line: int
    count: int = 1
    reason: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    text: Bilingual | None = None  # set when read back from JSON (the reason and details are gone then)
    taught: Teaching | None = None  # likewise: the lesson and cell as the JSON named them

    @property
    def teaching(self) -> Teaching:
        if self.taught is not None:
            return self.taught
        return TEACHES.get((self.kind, self.reason), Teaching(None, None))

    def what(self) -> Bilingual:
        if self.text is not None:
            return self.text
        return _what(self.kind, self.reason, self.function or "", self.count, {**self.details, "line": self.line})

    def why(self) -> Bilingual | None:
        return WHY.get((self.kind, self.reason))

    def message(self, lang: str) -> str:
        """What, then why it costs you (the JSON `message`)."""
        if self.text is not None:
            return self.text.get(lang)
        why = self.why()
        what = self.what().get(lang)
        if not why:
            return what
        return f"{what}{why.zh}" if lang == "zh" else f"{what} {why.en}"

    def to_json(self, lang: str) -> dict[str, Any]:
        teaching = self.teaching
        return {
            "kind": self.kind,
            "function": self.function,
            "file": self.file,
            "line": self.line,
            "count": self.count,
            "message": self.message(lang),
            "lesson": teaching.lesson,
            "cell": teaching.cell,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Finding:
        if data.get("kind") not in KINDS:
            raise ValueError(f"unknown finding kind {data.get('kind')!r}")
        return cls(
            kind=data["kind"],
            function=data.get("function"),
            file=str(data["file"]),
            line=int(data["line"]),
            count=int(data.get("count", 1)),
            text=Bilingual.same(str(data.get("message", ""))),
            taught=Teaching(data.get("lesson"), data.get("cell")),
        )

    def to_wire(self) -> dict[str, Any]:
        """Language-neutral, for the worker pipe: the message in every language."""
        teaching = self.teaching
        return {
            "kind": self.kind,
            "function": self.function,
            "file": self.file,
            "line": self.line,
            "count": self.count,
            "message": Bilingual(zh=self.message("zh"), en=self.message("en")).to_dict(),
            "lesson": teaching.lesson,
            "cell": teaching.cell,
        }

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Finding:
        if data.get("kind") not in KINDS:
            raise ValueError(f"unknown finding kind {data.get('kind')!r}")
        message = data.get("message") or {}
        return cls(
            kind=data["kind"],
            function=data.get("function"),
            file=str(data["file"]),
            line=int(data["line"]),
            count=int(data.get("count", 1)),
            text=Bilingual(zh=str(message.get("zh", "")), en=str(message.get("en", ""))),
            taught=Teaching(data.get("lesson"), data.get("cell")),
        )

    def key(self) -> tuple:
        return (self.kind, self.function, self.file, self.line)


def group(findings: list[Finding]) -> list[Finding]:
    """One finding per kind + function + place, with the counts added; in file order."""
    merged: dict[tuple, Finding] = {}
    for f in findings:
        k = f.key()
        if k in merged:
            merged[k].count += f.count
            for name, value in f.details.items():
                merged[k].details.setdefault(name, value)
        else:
            merged[k] = Finding(
                f.kind, f.function, f.file, f.line, f.count, f.reason, dict(f.details), f.text, f.taught
            )
    return sorted(merged.values(), key=lambda f: (f.file, f.line, KINDS.index(f.kind)))


@dataclass
class Report:
    """One doctor run: the script, how it ended, what was found, what it printed."""

    script: str
    status: str = "ok"
    exit_code: int | None = 0
    duration_s: float = 0.0
    findings: list[Finding] = field(default_factory=list)
    stdout: str = ""
    stderr: str = ""
    # how often each of the script's jitted functions was traced ("name:line" -> n); shown in
    # the text form, not part of the JSON contract
    traces: dict[str, int] = field(default_factory=dict)

    def decide_status(self, failed: bool, timed_out: bool = False) -> None:
        """timeout beats error beats findings beats ok."""
        self.status = "timeout" if timed_out else "error" if failed else "findings" if self.findings else "ok"

    def cli_exit_code(self) -> int:
        """The doctor command's exit code: 0 no finding, 1 findings, 3 the script failed."""
        if self.status in ("error", "timeout"):
            return 3
        return 1 if self.findings else 0

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        return {
            "script": self.script,
            "status": self.status,
            "exit_code": self.exit_code,
            "duration_s": round(self.duration_s, 3),
            "findings": [f.to_json(lang) for f in self.findings],
            "stdout": self.stdout,
            "stderr": self.stderr,
        }

    def to_wire(self) -> dict[str, Any]:
        """Language-neutral, for the worker pipe (the parent adds the captured output)."""
        return {
            "script": self.script,
            "status": self.status,
            "exit_code": self.exit_code,
            "duration_s": self.duration_s,
            "findings": [f.to_wire() for f in self.findings],
            "traces": dict(self.traces),
        }

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Report:
        traces = {str(k): int(v) for k, v in (data.get("traces") or {}).items()}
        return cls._from(data, Finding.from_wire, traces=traces)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Report:
        return cls._from(
            data, Finding.from_json, stdout=str(data.get("stdout", "")), stderr=str(data.get("stderr", ""))
        )

    @classmethod
    def _from(cls, data: dict[str, Any], finding: Callable[[dict], Finding], **extra: Any) -> Report:
        """The fields both forms share; `extra` holds what only one of them carries."""
        if data.get("status") not in STATUSES:
            raise ValueError(f"unknown doctor status {data.get('status')!r}")
        return cls(
            script=str(data["script"]),
            status=data["status"],
            exit_code=data.get("exit_code"),
            duration_s=float(data.get("duration_s", 0.0)),
            findings=[finding(f) for f in data.get("findings", [])],
            **extra,
        )
