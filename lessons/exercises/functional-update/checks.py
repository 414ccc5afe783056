"""The checks of `functional-update`: Write into a buffer without changing it."""

import collections
import types

import jax
import jax.numpy as jnp
import numpy as np

from tutor.child.library import (
    call,
    changed_what,
    check,
    close,
    dtypes,
    expect,
    expect_no_hidden_state,
    expect_traces,
    fail,
    global_changes,
    global_snapshot,
    is_defined,
    narrow_count,
    on_failure,
    planted,
    special_where,
    structure,
    traced,
    type_of,
)

Tracer = jax.core.Tracer

# (buffer, writes, index, value): first, last, negative and -n indices, a buffer of one element,
# counts that do not start at zero; the value written never equals the element it replaces.
CASES = [
    ([0.0, 1.0, 2.0, 3.0, 4.0], 0, 2, 7.5),
    ([0.0, 1.0, 2.0, 3.0, 4.0], 3, 0, -1.25),
    ([0.0, 1.0, 2.0, 3.0, 4.0], 41, 4, 0.0),
    ([0.5, -0.5, 2.0, 9.0, 1.0], 7, -1, 3.0),
    ([0.5, -0.5, 2.0, 9.0, 1.0], 2, -5, 6.0),
    ([2.0], 0, 0, -4.0),
    ([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], 5, -3, 2.5),
    # large old elements: blending arithmetic (buf + mask * (value - buf)) loses a small value there
    ([1.0e8, 3.0, -2.5e8, 0.5], 2, 0, 1.0),
    ([1.0e8, 3.0, -2.5e8, 0.5], 2, -2, -0.75),
    # the value already there: the buffer stays the same, and it is still a write
    ([0.5, -0.5, 2.0, 9.0, 1.0], 4, 3, 9.0),
]

# (buffer, index, value) holding inf and NaN, where the task defines the result as for any number:
# an inf overwritten, an inf written, a NaN overwritten, specials left where they are.
EDGES = [
    (planted([2.0, 0.5, -1.0, 3.0, 4.0], keep=-1), 0, 7.5),
    (planted([0.5, -0.5, 2.0, 9.0, 1.0], keep=-2), -2, np.inf),
    ([1.0, np.nan, 3.0], 1, -2.0),
]
BLEND = (
    "Elements holding inf or NaN must come back as they were (NaN stays NaN), and the element written holds "
    "the value, whatever was there. Arithmetic that blends old and new with a mask (buf * (1 - mask) + "
    "value * mask, buf + mask * (value - buf)) computes inf * 0 and inf - inf, which are NaN. Replace the "
    "element instead: `buffer.at[index].set(value)` (or jnp.where(mask, value, buffer)) never computes with "
    "the other elements",
    "含 inf 或 NaN 的元素必须原样返回（NaN 仍是 NaN），被写入的位置保存写入的值，不管原来是什么。"
    "用掩码混合新旧值的算术（buf * (1 - mask) + value * mask、buf + mask * (value - buf)）会算出 "
    "inf * 0 和 inf - inf，结果是 NaN。应直接替换元素：`buffer.at[index].set(value)`"
    "（或 jnp.where(mask, value, buffer)）不会拿其他元素做运算",
)

# A loop of calls, each from the last result: the same position is written twice.
STEPS = [(2, 1.5), (-1, -2.0), (2, 4.0), (0, 0.5), (-6, 3.25)]

INDEX_ADVICE = (
    "`index` counts as in Python: 0 is the first element, n - 1 the last, -1 the last too and -n the first. "
    "`buffer.at[index].set(value)` does exactly that, also for a traced index; the other elements stay as they were",
    "`index` 的含义与 Python 相同：0 是第一个元素，n - 1 是最后一个，-1 也是最后一个，-n 是第一个。"
    "`buffer.at[index].set(value)` 正是这样处理的，对追踪值形式的 index 也一样；其余元素保持不变",
)
WRITES_ADVICE = (
    "`writes` counts the calls: each update adds exactly one to the state's `writes`, whatever index and value are "
    "(writing the value already at that position is a write too)",
    "`writes` 统计调用次数：每次 update 都把状态里的 `writes` 恰好加一，与 index 和 value 无关"
    "（写入该位置上已有的值也算一次写入）",
)


def _state(buffer, writes):
    return {"buffer": jnp.asarray(buffer, dtype=jnp.float32), "writes": jnp.int32(writes)}


def _like(n):
    return {"buffer": jnp.zeros(n, jnp.float32), "writes": jnp.int32(0)}


def _show(x):
    arr = np.asarray(x, dtype=np.float64)
    return str(np.round(arr, 6).tolist()) if arr.ndim else f"{arr.item():g}"


def _new_state(out, n, what):
    """out is a dict {'buffer', 'writes'} shaped like the state (a dict subclass is fine)."""
    en, zh = what
    expect(
        isinstance(out, dict),
        f"{en} returned {_kind(out)}, expected the new state: a dict with keys 'buffer' and 'writes'",
        f"{zh} 返回了 {_kind(out, 'zh')}，应当返回新状态：含键 'buffer' 和 'writes' 的字典",
    )
    structure(dict(out), _like(n), what=(f"the state returned by {en}", f"{zh} 返回的状态"))
    return dict(out)


def _kind(x, lang="en"):
    """What came back instead of a dict: `tuple of 2 values`, `Array (float32[4])`."""
    name = type(x).__name__
    if isinstance(x, (tuple, list)):
        return f"a {name} of {len(x)} values" if lang == "en" else f"{name}（含 {len(x)} 个值）"
    t = type_of(x)
    if t == name:
        return name
    return f"{name} ({t})" if lang == "en" else f"{name}（{t}）"


def _position(index, n):
    return index % n


def _judge_buffer(got, before, index, value, what):
    """The buffer after one write: name a dropped `.at[].set`, a write at the wrong place, an add."""
    en, zh = what
    got64 = np.asarray(got, dtype=np.float64)
    n = before.shape[0]
    pos = index % n
    want = before.copy()
    want[index] = value
    if got64.shape == before.shape and not np.array_equal(want, before):  # else an unchanged buffer is right
        if np.array_equal(got64, before) and index < 0:
            fail(
                f"{en}: nothing was written, the buffer came back as {_show(got64)}: index {index} of a buffer "
                f"of {n} is position {pos}, which should hold {value:g}. {INDEX_ADVICE[0]}",
                f"{zh}：什么也没写入，返回的 buffer 仍是 {_show(got64)}：在长度为 {n} 的 buffer 里，"
                f"index {index} 是位置 {pos}，那里应为 {value:g}。{INDEX_ADVICE[1]}",
            )
        if np.array_equal(got64, before):
            fail(
                f"{en}: the buffer came back unchanged, {_show(got64)}; position {pos} should hold {value:g}. "
                "`x.at[i].set(v)` never changes x: it returns a new array, so its result must be kept "
                "(`new_buffer = state['buffer'].at[index].set(value)`) and put into the new state",
                f"{zh}：返回的 buffer 没有变化，仍是 {_show(got64)}；位置 {pos} 应为 {value:g}。"
                "`x.at[i].set(v)` 从不修改 x：它返回一个新数组，所以必须保留它的结果"
                "（`new_buffer = state['buffer'].at[index].set(value)`），并放进新状态",
            )
        moved = np.flatnonzero(~np.isclose(got64, before))
        if len(moved) == 1 and np.isclose(got64[moved[0]], value) and moved[0] != pos:
            fail(
                f"{en}: {value:g} was written at position {moved[0]}, but index {index} of a buffer of {n} "
                f"is position {pos}. {INDEX_ADVICE[0]}",
                f"{zh}：{value:g} 被写到了位置 {moved[0]}，但在长度为 {n} 的 buffer 里，index {index} "
                f"是位置 {pos}。{INDEX_ADVICE[1]}",
            )
        wrong = np.flatnonzero(~np.isclose(got64, want))
        if list(wrong) == [pos]:
            old, held = before[pos], got64[pos]
            added = np.isclose(held, old + value)
            large = not added and abs(old) > 1e7
            fail(
                f"{en}: position {pos} holds {held:g}, expected {value:g}: the value replaces the old element "
                f"({old:g}), whatever it was"
                + (". That is old + value: `.at[index].add` adds, `.at[index].set` replaces" if added else "")
                + (
                    ". Next to an element this large, arithmetic that blends the old and the new value "
                    "(`buf + mask * (value - buf)`) loses the value: float32 keeps about 7 digits. Replace "
                    "the element instead: `.at[index].set(value)`"
                    if large
                    else ""
                ),
                f"{zh}：位置 {pos} 的值是 {held:g}，应为 {value:g}：写入的值要替换掉旧元素（{old:g}），不管它原来是多少"
                + ("。这是旧值加 value 的结果：`.at[index].add` 是相加，`.at[index].set` 才是替换" if added else "")
                + (
                    "。旧元素这么大时，把新旧值混合计算（`buf + mask * (value - buf)`）会丢失写入的值："
                    "float32 只保留约 7 位有效数字。请直接替换元素：`.at[index].set(value)`"
                    if large
                    else ""
                ),
            )
    with on_failure(*INDEX_ADVICE):
        close(got, want, what=(f"buffer returned by {en}", f"{zh} 返回的 buffer"))


@check("defines")
def check_defines(update):
    is_defined(update=update)


@check("returns-state", depends=["defines"])
def check_returns_state(update):
    state = _state([0.0, 1.0, 2.0, 3.0], 0)
    out = call(update, state, 1, 5.0, label="update(state, 1, 5.0)")
    expect(
        out is not None,
        "update(state, 1, 5.0) returned None: it must return the new state. If it changed `state` in place "
        "instead, that only seems to work without jit: under jax.jit the function receives a copy of the dict "
        "rebuilt from tracers, so the change is silently lost, and an eager caller finds its own state changed",
        "update(state, 1, 5.0) 返回了 None：它必须返回新状态。如果它改为原地修改 `state`，那只是在不加 jit 时"
        "看似可行：在 jax.jit 下，函数拿到的是用追踪值重建的字典副本，修改会悄无声息地丢失；"
        "而不加 jit 时，调用方会发现自己的状态被改掉了",
    )
    new = _new_state(out, 4, ("update(state, 1, 5.0)", "update(state, 1, 5.0)"))
    with on_failure(
        "The new buffer keeps the old one's dtype and shape (float32, one element per position) and the new "
        "count stays an int32 scalar: `state['writes'] + 1`, not a Python int or a float",
        "新 buffer 与旧 buffer 的 dtype 和形状相同（float32，每个位置一个元素），新计数仍是 int32 标量："
        "`state['writes'] + 1`，不要变成 Python int 或浮点数",
    ):
        dtypes(new, _like(4), what="new_state")


@check("values", depends=["returns-state"])
def check_values(update):
    for buffer, writes, index, value in CASES:
        before = np.asarray(buffer, dtype=np.float64)
        en = f"update(state, {index}, {value:g}) with buffer {_show(before)} and writes {writes}"
        zh = f"update(state, {index}, {value:g})（buffer 为 {_show(before)}，writes 为 {writes}）"
        out = call(update, _state(buffer, writes), index, value, label=f"update(state, {index}, {value:g})")
        new = _new_state(out, len(buffer), (en, zh))
        _judge_buffer(new["buffer"], before, index, value, (en, zh))
        with on_failure(*WRITES_ADVICE):
            close(new["writes"], np.float64(writes + 1), what=(f"writes returned by {en}", f"{zh} 返回的 writes"))

    # A count resumed after many writes: 2**24 + 1 is past every narrow integer and past what
    # float32 holds exactly, so a count taken through either comes back wrong, by exactly as much.
    def writes_after(start):
        out = call(update, _state([0.0, 1.0, 2.0], start), 1, 2.5, label="update(state, 1, 2.5)")
        return int(np.asarray(_new_state(out, 3, ("update(state, 1, 2.5)", "update(state, 1, 2.5)"))["writes"]))

    big = 2**24 + 1
    got = writes_after(big)
    if got != big + 1:
        cause = narrow_count(writes_after, big, got) or (
            "it was not computed as the integer writes + 1",
            "它不是按整数 writes + 1 算出来的",
        )
        fail(
            f"update(state, 1, 2.5) with writes={big} (2**24 + 1, after many writes) returned writes={got}, "
            f"not {big + 1}: {cause[0]}",
            f"update(state, 1, 2.5)（writes={big}，即 2**24 + 1，写过很多次之后）返回的 writes 是 {got}，"
            f"而不是 {big + 1}：{cause[1]}",
        )

    # The edges the task defines: every element a write leaves stays exactly as it was, inf and
    # NaN too, and the element written holds the value, inf too (a masked blend multiplies inf by
    # 0, which is NaN, and computes inf - inf where it overwrites an inf).
    for buffer, index, value in EDGES:
        en = f"update(state, {index}, {value:g}) with buffer {_show(buffer)}"
        zh = f"update(state, {index}, {value:g})（buffer 为 {_show(buffer)}）"
        out = call(update, _state(buffer, 3), index, value, label=f"update(state, {index}, {value:g})")
        new = _new_state(out, len(buffer), (en, zh))
        want = np.array(buffer, np.float64)
        want[index] = value
        special_where(new["buffer"], want, (f"the buffer from {en}", f"{zh} 返回的 buffer"), BLEND)

    state, want, count = _state(np.zeros(6), 0), np.zeros(6), 0
    for k, (index, value) in enumerate(STEPS, start=1):
        en = f"step {k} of a loop, update(state, {index}, {value:g}) on the last result"
        zh = f"循环第 {k} 步，在上一步的结果上调用 update(state, {index}, {value:g})"
        out = call(
            update,
            state,
            index,
            value,
            label=(f"update(state, {index}, {value:g}), step {k}", f"第 {k} 步的 update(state, {index}, {value:g})"),
        )
        state = _new_state(out, 6, (en, zh))
        _judge_buffer(state["buffer"], want, index, value, (en, zh))
        want[index] = value
        count += 1
        with on_failure(*WRITES_ADVICE):
            close(state["writes"], np.float64(count), what=(f"writes after {en}", f"{zh}之后的 writes"))


@check("input-untouched", depends=["values"])
def check_input_untouched(update):
    state = _state([1.0, 2.0, 3.0, 4.0], 5)
    given = dict(state)  # the very objects the caller holds
    out = call(update, state, -2, 9.0, label="update(state, -2, 9.0)")
    deleted = [k for k, v in given.items() if v.is_deleted()]
    expect(
        not deleted,
        f"after update(state, -2, 9.0) the caller's {', '.join(f'state[{k!r}]' for k in deleted)} "
        "were deleted: update donates its input (donate_argnums), so the caller can no longer read the state "
        "it still holds. Here the old state must stay usable: do not donate it",
        f"调用 update(state, -2, 9.0) 之后，调用方的 {'、'.join(f'state[{k!r}]' for k in deleted)} 已被删除："
        "update 捐赠了它的输入（donate_argnums），调用方手里的状态再也读不了。"
        "本练习要求旧状态保持可用：不要捐赠它",
    )
    en, zh = [], []
    for key, old in given.items():
        if key not in state:
            en.append(f"state[{key!r}] was removed")
            zh.append(f"state[{key!r}] 被删除了")
        elif state[key] is not old:
            en.append(f"state[{key!r}] is now {_show(state[key])} (it was {_show(old)})")
            zh.append(f"state[{key!r}] 变成了 {_show(state[key])}（原来是 {_show(old)}）")
    for key in state:
        if key not in given:
            en.append(f"state[{key!r}] was added")
            zh.append(f"新增了 state[{key!r}]")
    same = out is state
    expect(
        not en,
        f"after update(state, -2, 9.0) the caller's dict has changed: {'; '.join(en)}. update wrote into "
        + ("the dict it was given and returned that same dict" if same else "the dict it was given")
        + " instead of building a new one (`new = state` is the same dict under a second name, not a copy). "
        "Without jit the caller's state changes under its feet; under jax.jit the function receives a copy "
        "rebuilt from tracers, so the same writes are silently lost. Build a new dict: "
        "`{**state, 'buffer': ..., 'writes': ...}`, or `dict(state)` and then assign",
        f"调用 update(state, -2, 9.0) 之后，调用方的字典变了：{'；'.join(zh)}。update 直接写进了"
        + ("传进来的字典，还把同一个字典返回了" if same else "传进来的字典")
        + "，而没有构造一个新字典（`new = state` 只是给同一个字典起了第二个名字，并不是副本）。"
        "不加 jit 时，调用方的状态被悄悄改掉；在 jax.jit 下，函数拿到的是用追踪值重建的副本，"
        "同样的写入会悄无声息地丢失。请构造新字典：`{**state, 'buffer': ..., 'writes': ...}`，"
        "或者先 `dict(state)` 再赋值",
    )


def _tracers_in(value):
    """Names of the tracer types held by a value, or one level inside it."""
    inner = [value]
    if isinstance(value, dict):
        inner += list(value.values())
    elif isinstance(value, (list, tuple, set, collections.deque)):
        inner += list(value)
    elif hasattr(value, "__dict__") and not isinstance(value, types.ModuleType):
        inner += list(vars(value).values())
    leaves = [leaf for v in inner for leaf in jax.tree.leaves(v, is_leaf=lambda x: isinstance(x, Tracer))]
    return sorted({type(leaf).__name__ for leaf in leaves if isinstance(leaf, Tracer)})


@check("no-side-effects", depends=["returns-state"])
def check_no_side_effects(learner):
    update = learner.update
    before = global_snapshot(learner)  # globals, defaults, closure cells, at any depth
    batch = 4
    call(update, _state([0.0, 1.0, 2.0], 0), 1, 2.0, label="update(state, 1, 2.0)")
    # Under the transformations; a failure here is judged by the jit and vmap checks, not this one.
    states = {"buffer": jnp.zeros((batch, 3), jnp.float32), "writes": jnp.zeros(batch, jnp.int32)}
    try:
        jax.vmap(update)(states, jnp.arange(batch, dtype=jnp.int32) % 3, jnp.ones(batch, jnp.float32))
    except Exception:  # noqa: BLE001 - the vmap-batch check reports it
        pass
    try:
        traced(update, "update")(_state([0.0, 1.0, 2.0], 0), 2, 5.0)
    except Exception:  # noqa: BLE001 - the jit-once check reports it
        pass
    runs_en = f"1 direct call, a jax.vmap call over a batch of {batch} and a jax.jit call"
    runs_zh = f"1 次直接调用、1 次对 {batch} 个样本的 jax.vmap 调用和 1 次 jax.jit 调用"
    advice_en = (
        "update must only return the new state: remove the side effect. Counting writes is what "
        "state['writes'] is for; anything else worth keeping goes into the returned state too"
    )
    advice_zh = "update 只应返回新状态：去掉这个副作用。统计写入次数正是 state['writes'] 的用途；其他值得保留的东西，也应放进返回的状态里"
    changed = global_changes(learner, before)
    if changed:
        held = sorted(
            {t for name in changed.names if hasattr(learner, name) for t in _tracers_in(getattr(learner, name))}
        )
        tracer_en = tracer_zh = ""
        if held:
            tracer_en = (
                f" What it stored includes tracers ({', '.join(held)}): under jax.vmap and jax.jit the body runs "
                "once per trace, with one tracer standing for the whole batch, not once per example, and a "
                "tracer kept after the call has leaked out of its trace."
            )
            tracer_zh = (
                f"存进去的东西里有追踪值（{'、'.join(held)}）：在 jax.vmap 和 jax.jit 下，函数体每次追踪只执行一次，"
                "一个追踪值代表整批数据，而不是每个样本执行一次；调用结束后还留着的追踪值，已经泄漏出了它的追踪。"
            )
        what_en, what_zh = changed_what(changed)
        fail(
            f"over {runs_en}, update {what_en}: it {changed.en}.{tracer_en} {advice_en}",
            f"在 {runs_zh}中，update {what_zh}：它{changed.zh}。{tracer_zh}{advice_zh}",
        )
    expect_no_hidden_state(
        learner,
        update,
        _state([0.0, 1.0, 2.0], 0),
        1,
        2.0,
        label="update(state, 1, 2.0)",
        advice=(advice_en, advice_zh),
    )


@check("jit-once", depends=["values"])
def check_jit_once(update):
    step = traced(update, "update")
    original = _state(np.zeros(6), 0)
    state, want = original, np.zeros(6)
    for k, (index, value) in enumerate(STEPS, start=1):
        en = f"jitted call {k}, update(state, {index}, {value:g})"
        zh = f"jit 后的第 {k} 次 update(state, {index}, {value:g})"
        out = call(step, state, index, value, label=(en, zh))
        state = _new_state(out, 6, (en, zh))
        _judge_buffer(state["buffer"], want, index, value, (en, zh))
        want[index] = value
        close(state["writes"], np.float64(k), what=(f"writes after {en}", f"{zh}之后的 writes"))
    close(
        original["buffer"],
        np.zeros(6),
        what=("the caller's first state after the jitted loop, buffer", "jit 循环结束后，调用方最初那个状态的 buffer"),
    )
    with on_failure(
        "Different indices and values must reuse one compiled program: keep `index` and `value` ordinary "
        "(traced) arguments, not static ones, and keep each state leaf's dtype from one call to the next",
        "不同的 index 和 value 必须复用同一个编译好的程序：让 `index` 和 `value` 作为普通（被追踪的）参数，"
        "不要标成静态参数；并让状态每个叶子的 dtype 在前后两次调用之间保持不变",
    ):
        expect_traces(step, 1, calls=len(STEPS))


@check("vmap-batch", depends=["values"])
def check_vmap_batch(update):
    rng = np.random.default_rng(62)
    for batch, n, shared in [(3, 4, None), (5, 7, -2)]:
        buffers = rng.uniform(-5.0, 5.0, size=(batch, n)).round(2)
        writes = rng.integers(0, 50, size=batch)
        indices = np.array([0, -1, n - 1, 2, -n][:batch])
        values = rng.uniform(10.0, 20.0, size=batch).round(2)  # never equal to an old element
        states = {"buffer": jnp.asarray(buffers, jnp.float32), "writes": jnp.asarray(writes, jnp.int32)}
        if shared is None:
            label = f"jax.vmap(update)(states, indices, values) over a batch of {batch}"
            label_zh = f"{batch} 个样本的 jax.vmap(update)(states, indices, values)"
            out = call(
                jax.vmap(update),
                states,
                jnp.asarray(indices, jnp.int32),
                jnp.asarray(values, jnp.float32),
                label=(label, label_zh),
            )
            used = indices
        else:
            label = f"jax.vmap(update, in_axes=(0, None, 0))(states, {shared}, values) over a batch of {batch}"
            label_zh = f"{batch} 个样本的 jax.vmap(update, in_axes=(0, None, 0))(states, {shared}, values)"
            out = call(
                jax.vmap(update, in_axes=(0, None, 0)),
                states,
                shared,
                jnp.asarray(values, jnp.float32),
                label=(label, label_zh),
            )
            used = np.full(batch, shared)
        expect(
            isinstance(out, dict),
            f"{label} returned {type(out).__name__}, expected a dict of batched arrays",
            f"{label_zh} 返回了 {type(out).__name__}，应当返回由带批维度的数组组成的字典",
        )
        structure(dict(out), {"buffer": states["buffer"], "writes": states["writes"]}, what=label)
        want = buffers.astype(np.float64).copy()
        want[np.arange(batch), used % n] = values
        with on_failure(
            f"Each row is one state with its own index and value: row r gets values[r] at its own position, "
            f"and its own writes + 1. Inside update, state['buffer'] has shape ({n},), as for a single call",
            f"每一行是一个独立的状态，有自己的 index 和 value：第 r 行在它自己的位置写入 values[r]，"
            f"它自己的 writes 加一。在 update 内部，state['buffer'] 的形状是 ({n},)，与单次调用时一样",
        ):
            close(out["buffer"], want, what=(f"buffer returned by {label}", f"{label_zh} 返回的 buffer"))
            close(
                out["writes"],
                writes.astype(np.float64) + 1,
                what=(f"writes returned by {label}", f"{label_zh} 返回的 writes"),
            )
