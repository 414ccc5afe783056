"""The check library judges meaning: trace counts with reasons, nested primitives, values,
gradients, exceptions. These run in-process (the library is child-side code)."""

from __future__ import annotations

import types
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from tutor.child import library as L
from tutor.child.library import tracing

pytestmark = pytest.mark.slow  # JAX in-process


def test_close_names_leaf_and_index():
    got = {"w": jnp.array([1.0, 2.0, 3.5]), "b": jnp.float32(0.0)}
    want = {"w": np.array([1.0, 2.0, 3.0]), "b": np.float64(0.0)}
    with pytest.raises(L.CheckFailed) as err:
        L.close(got, want, what="params")
    assert "params['w']" in err.value.en and "index (2,)" in err.value.en and "3.5" in err.value.en
    assert "params['w']" in err.value.zh
    L.close(got, {"w": np.array([1.0, 2.0, 3.5]), "b": 0.0}, what="params")


def test_close_reports_structure_and_shape():
    with pytest.raises(L.CheckFailed, match="structure"):
        L.close((1.0, 2.0), [1.0, 2.0])
    with pytest.raises(L.CheckFailed, match="shape"):
        L.close(jnp.ones(3), np.ones(2))


def test_trace_counter_explains_weak_type_retrace():
    def update(state, x):
        total, n = state
        return (total + x, n + 1), total / jnp.maximum(n, 1)

    counter = L.traced(update)
    state = (0.0, 0)
    for x in jnp.arange(3.0):
        state, _ = counter(state, x)
    assert counter.count == 2
    with pytest.raises(L.CheckFailed) as err:
        L.expect_traces(counter, 1, calls=3)
    assert "state[0] was ~float32[] (weak), now float32[]" in err.value.en
    assert "弱类型" in err.value.zh

    typed = L.traced(update)
    state = (jnp.float32(0.0), jnp.int32(0))
    for x in jnp.arange(3.0):
        state, _ = typed(state, x)
    L.expect_traces(typed, 1)


def test_trace_counter_keeps_learner_static_choice():
    @partial(jax.jit, static_argnames="lr")
    def step(p, lr):
        return p - lr * p

    counter = L.traced(step)
    for lr in (0.1, 0.2, 0.3):
        counter(jnp.float32(1.0), lr=lr)
    assert counter.count == 3
    with pytest.raises(L.CheckFailed) as err:
        L.expect_traces(counter, 1)
    assert "lr was 0.1 (static), now 0.2 (static)" in err.value.en


def test_trace_counter_is_fresh_each_time():
    def f(x):
        return x + 1

    jf = jax.jit(f)
    jf(1.0)
    counter = L.traced(jf)
    counter(1.0)
    assert counter.count == 1  # the learner's own cache does not hide the trace


def test_primitive_search_goes_into_nested_jaxprs():
    @jax.jit
    def inner(xs):
        return lax.scan(lambda c, x: (c + x, c), 0.0, xs)[0]

    def outer(xs, flag):
        return lax.cond(flag, inner, lambda xs: jnp.sum(xs), xs)

    found = L.primitives(outer, jnp.arange(3.0), True)
    assert "scan" in found and "cond" in found
    L.expect_primitive(outer, (jnp.arange(3.0), True), "scan")

    def python_loop(xs):
        total = 0.0
        for x in xs:
            total = total + x
        return total

    with pytest.raises(L.CheckFailed, match="no `scan` primitive"):
        L.expect_primitive(python_loop, (jnp.arange(3.0),), "scan")


def test_raises_matches_by_class_family():
    def bad(steps):
        return lax.scan(lambda c, _: (c + 1, None), 0, None, length=steps)[0]

    exc = L.raises(jax.jit(bad), 3, types=("ConcretizationTypeError", "TypeError"))
    assert exc is not None
    assert L.raises(lambda: 1) is None
    with pytest.raises(ZeroDivisionError):
        L.raises(lambda: 1 / 0, types=("KeyError",))


def test_grad_check_accepts_right_and_rejects_wrong_gradients():
    def loss(p):
        return jnp.sum(jnp.tanh(p["w"]) ** 2) + p["b"] ** 2

    params = {"w": jnp.array([0.3, -0.7, 1.1]), "b": jnp.float32(0.5)}
    L.grad_check(loss, params, jax.grad(loss)(params))
    wrong = jax.tree.map(lambda g: 0.5 * g, jax.grad(loss)(params))
    with pytest.raises(L.CheckFailed, match="finite differences"):
        L.grad_check(loss, params, wrong)


def test_grad_check_rounds_its_points_to_each_leafs_dtype():
    seen = []

    def f(x):
        seen.append((x["a"].dtype, x["h"].dtype))
        return jnp.sum(x["a"].astype(jnp.float32) ** 2) + jnp.sum(x["h"].astype(jnp.float32))

    x = {"a": jnp.array([1.0, 2.0], jnp.float32), "h": jnp.array([0.5, 0.25], jnp.bfloat16)}
    grads = {"a": 2 * x["a"], "h": jnp.ones(2, jnp.bfloat16)}
    L.grad_check(f, x, grads, eps=1e-2, directions=1, rtol=0.1)
    assert seen == [(jnp.float32, jnp.bfloat16)] * 2


def test_other_key_keeps_the_kind_of_key_and_flips_its_bits_in_numpy():
    typed, raw = jax.random.key(7), jax.random.PRNGKey(7)
    other_typed, other_raw = L.other_key(typed), L.other_key(raw)
    assert other_typed.dtype == typed.dtype and jax.random.key_impl(other_typed) == jax.random.key_impl(typed)
    flipped = np.asarray(jax.random.key_data(typed)) ^ np.uint32(0x9E3779B9)  # no random program: NumPy's xor
    assert np.array_equal(jax.random.key_data(other_typed), flipped)
    assert other_raw.dtype == jnp.uint32 and np.array_equal(other_raw, np.asarray(raw) ^ np.uint32(0x9E3779B9))


def test_dtypes_notes_weak_types():
    with pytest.raises(L.CheckFailed) as err:
        L.dtypes((0.0,), (jnp.float32(0.0),), what="state")
    assert "~float32[]" in err.value.en and "weak" in err.value.en


@pytest.fixture
def x64():
    """64-bit types on in this process, as JAX_ENABLE_X64=1 (or a learner's file) turns them on."""
    was = jax.config.values["jax_enable_x64"]
    jax.config.update("jax_enable_x64", True)
    yield
    jax.config.update("jax_enable_x64", was)


def test_dtypes_names_jax_enable_x64_where_a_64_bit_default_crept_in(x64):
    assert L.x64_enabled()
    with pytest.raises(L.CheckFailed) as err:
        L.dtypes({"writes": 1}, {"writes": jnp.int32(0)}, what="state")
    assert "~int64[], expected int32[]" in err.value.en and "JAX_ENABLE_X64 is on" in err.value.en
    assert "JAX_ENABLE_X64" in err.value.zh
    # a 64-bit type that was asked for, or 64 bits on neither side: nothing to add
    assert L.x64_note(jnp.zeros(2), expected=jnp.float64) == ("", "")
    assert L.x64_note("float32[2]", "~int32[]") == ("", "")
    assert L.x64_note(jax.random.key(0)) == ("", "")  # a key's dtype is no number's


def test_no_x64_note_without_64_bit_types():
    assert not L.x64_enabled()
    assert L.x64_note("float64[3]", expected="float32[3]") == ("", "")
    with pytest.raises(L.CheckFailed) as err:
        L.dtypes({"writes": 1}, {"writes": jnp.int32(0)}, what="state")
    assert "JAX_ENABLE_X64" not in err.value.en


def test_learner_attr_and_is_jitted():
    import types

    mod = types.SimpleNamespace(f=jax.jit(lambda x: x))
    assert L.is_jitted(L.learner_attr(mod, "f"))
    with pytest.raises(L.CheckFailed, match="does not define `g`"):
        L.learner_attr(mod, "g")


# ---------------------------------------------------------------- bilingual labels


def test_labels_take_a_pair_for_the_two_languages():
    got = {"w": jnp.array([1.0, 2.5]), "b": jnp.float32(0.0)}
    want = {"w": np.array([1.0, 2.0]), "b": 0.0}
    with pytest.raises(L.CheckFailed) as err:
        L.close(got, want, what=("params after step 2", "第 2 步后的参数"))
    assert err.value.en.startswith("params after step 2 (leaf ['w']): expected")
    assert err.value.zh.startswith("第 2 步后的参数（叶子 ['w']）：应为") and "step 2" not in err.value.zh
    with pytest.raises(L.CheckFailed) as err:
        L.close(got, want, what=("state", "状态"))  # a variable-like label is indexed directly
    assert "state['w']" in err.value.en and "状态（叶子 ['w']）" in err.value.zh

    with pytest.raises(L.CheckFailed) as err:
        L.structure((1.0, 2.0), [1.0, 2.0], what=("new stats", "新的统计量"))
    assert err.value.en.startswith("new stats has PyTree structure") and err.value.zh.startswith(
        "新的统计量 的 PyTree 结构"
    )
    with pytest.raises(L.CheckFailed) as err:
        L.dtypes((0.0,), (jnp.float32(0.0),), what=("the state", "状态"))
    assert err.value.en.startswith("the state (leaf [0]) is ~float32[]") and err.value.zh.startswith(
        "状态（叶子 [0]）的类型是 ~float32[]"
    )

    def loss(p):
        return jnp.sum(p**2)

    with pytest.raises(L.CheckFailed) as err:
        L.grad_check(loss, jnp.array([1.0, -2.0]), jnp.array([1.0, -2.0]), what=("grads at x", "x 处的梯度"))
    assert err.value.en.startswith("grads at x disagrees") and err.value.zh.startswith("x 处的梯度 与有限差分不一致")
    with pytest.raises(L.CheckFailed) as err:
        L.expect_primitive(lambda x: x + 1, (1.0,), "scan", what=("the loop", "这个循环"))
    assert "of the loop;" in err.value.en and err.value.zh.startswith("这个循环 编译出的程序")


def test_a_str_label_still_serves_both_languages():
    with pytest.raises(L.CheckFailed) as err:
        L.close(jnp.float32(1.0), 2.0, what="count after 5 calls")
    assert err.value.en.startswith("count after 5 calls: expected 2")
    assert err.value.zh.startswith("count after 5 calls：应为 2")
    with pytest.raises(L.CheckError):
        L.close(1.0, 2.0, what=("only English",))


def test_on_failure_appends_to_failures_only():
    with pytest.raises(L.CheckFailed) as err:
        with L.on_failure("Each step starts from the last result", "每一步都从上一步的结果出发"):
            L.close(jnp.float32(1.0), 2.0, what="params")
    assert err.value.en.endswith("atol=1e-06. Each step starts from the last result")
    assert err.value.zh.endswith("atol=1e-06。每一步都从上一步的结果出发")
    with pytest.raises(L.CheckFailed) as err:
        with L.on_failure("Look at the sign.", "检查符号。"):
            L.fail("wrong value.", "值不对。")
    assert (err.value.en, err.value.zh) == ("wrong value. Look at the sign.", "值不对。检查符号。")
    with pytest.raises(ZeroDivisionError):  # the learner's own errors are not rewritten
        with L.on_failure("never shown", "不显示"):
            1 / 0  # noqa: B018 - the learner's own error, raised where Python raises it
    with L.on_failure("never shown", "不显示"):
        L.close(jnp.float32(2.0), 2.0)


# ---------------------------------------------------------------- side effects


def test_global_changes_sees_rebinding_new_names_and_in_place_changes():
    import collections
    import types

    mod = types.ModuleType("learner_like")
    holder = types.SimpleNamespace(n=0)

    def fn():
        pass

    mod.__dict__.update(
        total=0,
        history=[],
        cache={},
        seen=set(),
        window=collections.deque(),
        buf=np.zeros(3),
        holder=holder,
        fn=fn,
        blob=bytearray(b"ab"),
        arr=jnp.zeros(2),
        gone=1,
        np=np,
    )
    before = L.global_snapshot(mod)
    nothing = L.global_changes(mod, before)
    assert not nothing and nothing.names == [] and nothing.en == nothing.zh == ""

    mutations = {
        "total": lambda: setattr(mod, "total", 1),
        "history": lambda: mod.history.append(1),
        "cache": lambda: mod.cache.update(k=1),
        "seen": lambda: mod.seen.add(1),
        "window": lambda: mod.window.append(1),
        "buf": lambda: mod.buf.__setitem__(0, 5.0),
        "holder": lambda: setattr(holder, "n", 1),
        "fn": lambda: setattr(fn, "calls", 1),
        "blob": lambda: mod.blob.__setitem__(0, 99),
    }
    for name, mutate in mutations.items():
        before = L.global_snapshot(mod)
        mutate()
        changed = L.global_changes(mod, before)
        assert changed and changed.names == [name], (name, changed)
    before = L.global_snapshot(mod)
    mod.total = 2
    mod.history.append(2)
    mod.created = 3
    del mod.gone
    changed = L.global_changes(mod, before)
    assert (
        changed.en == "created created; deleted gone; reassigned total; changed the contents or attributes of history"
    )
    assert changed.zh == "新建了 created；删除了 gone；重新赋值了 total；修改了 history 的内容或属性"
    mod.cache["k"] = [1.0]
    before = L.global_snapshot(mod)
    mod.cache["k"] = [1.0]  # an equal but new object still counts: contents are compared with `is`
    assert L.global_changes(mod, before).names == ["cache"]


def test_global_snapshot_of_an_object_follows_its_attributes():
    import types
    from typing import NamedTuple

    state = types.SimpleNamespace(value=jnp.zeros(2))
    before = L.global_snapshot(state)
    state.value = state.value + 1
    assert L.global_changes(state, before).names == ["value"]

    class Holder(NamedTuple):
        value: jax.Array

    holder = Holder(jnp.zeros(2))
    assert L.global_snapshot(holder) == {} and not L.global_changes(holder, {})


def test_returns_unpacks_the_promised_tuple_and_names_what_came_instead():
    assert L.returns([1, 2], ("new_state", "loss"), "train_step") == (1, 2)
    with pytest.raises(L.CheckFailed) as err:
        L.returns((1, 2, 3), ("new_state", "loss"), "train_step")
    assert err.value.en == "train_step should return a pair (new_state, loss), got tuple of length 3"
    assert err.value.zh == "train_step 应返回二元组 (new_state, loss)，实际返回 tuple，长度为 3"
    with pytest.raises(L.CheckFailed) as err:
        L.returns(jnp.float32(1.0), ("mean", "var", "var_trace"), "online_var")
    assert err.value.en == "online_var should return three values (mean, var, var_trace), got ArrayImpl (float32[])"
    with pytest.raises(L.CheckFailed, match="got NoneType$"):
        L.returns(None, ("a", "b"), "f")


def test_keeps_globals_names_the_change_then_the_advice_and_judges_only_a_finished_block():
    module = types.ModuleType("learner")
    exec("total = 0\nhistory = []\n", module.__dict__)
    with L.keeps_globals(module, ("calling f", "调用 f")):
        pass
    with pytest.raises(L.CheckFailed) as err:
        with L.keeps_globals(module, ("calling f", "调用 f"), advice=("Return it instead", "应当返回它")):
            module.total = 1
            module.history.append(2)
    assert err.value.en == (
        "calling f changed your module's globals: it reassigned total; changed the contents or attributes of "
        "history. Return it instead"
    )
    assert err.value.zh.startswith("调用 f 改动了模块的全局变量：它重新赋值了 total") and err.value.zh.endswith(
        "。应当返回它"
    )
    with pytest.raises(ZeroDivisionError):  # the learner's own error goes on, unjudged
        with L.keeps_globals(module, "calling f"):
            module.total = 1 / 0


def test_tree_copy_finds_the_leaf_changed_in_place_and_skips_donated_buffers():
    state = {"m": np.zeros(2), "count": np.int32(0)}
    kept = L.TreeCopy(state)
    assert kept.first_change(state) is None
    state["m"][1] = 5.0  # NumPy leaves can be written in place
    where, old, now = kept.first_change(state)
    assert where == "['m']" and old.tolist() == [0.0, 0.0] and np.asarray(now).tolist() == [0.0, 5.0]
    assert kept.structure == jax.tree.structure(state)
    donated = {"m": jnp.ones(2)}
    copy = L.TreeCopy(donated)
    jax.jit(lambda t: jax.tree.map(lambda a: a + 1, t), donate_argnums=0)(donated)
    assert donated["m"].is_deleted() and copy.first_change(donated) is None


def test_expect_compiled_accepts_jit_and_thin_wrappers_and_names_a_plain_function():
    def step(x, lr):
        return x - lr * x

    jitted = jax.jit(step)
    x = jnp.array([1.0, 2.0])
    L.expect_compiled(jitted, "step", None)  # a jax.jit result needs no trial call
    L.expect_compiled(lambda v, lr: jitted(v, lr), "step", lambda v: jitted(v, 0.1), x)
    with pytest.raises(L.CheckFailed) as err:
        L.expect_compiled(step, "step", lambda v: step(v, 0.1), x)
    assert err.value.en.startswith("step is a plain function, not compiled: it is not the result of `jax.jit`")
    with pytest.raises(L.CheckFailed, match="not compiled"):
        L.expect_compiled(step, "step", None)  # the check could build no arguments


def test_primitive_counts_sees_a_python_loop_unrolled_and_scan_once():
    def unrolled(s):
        for _ in range(10):
            s = s + 1
        return s

    def looped(s):
        return lax.scan(lambda c, _: (c + 1, None), s, None, length=10)[0]

    assert L.primitive_counts(jax.jit(unrolled), jnp.float32(0.0))["add"] == 10
    counts = L.primitive_counts(looped, jnp.float32(0.0))
    assert counts["scan"] == 1 and counts["add"] == 1  # the body's add, inside the scan
    assert L.primitive_names(jax.make_jaxpr(looped)(jnp.float32(0.0))) == set(counts)


def test_run_training_streams_every_loss_and_stops_at_the_first_nan(monkeypatch):
    from tutor.child.library import training

    points = []
    monkeypatch.setattr(training, "metric", lambda series, step, value: points.append((series, step, value)))

    def chunk(carry):
        return carry + 3, jnp.arange(carry, carry + 3, dtype=jnp.float32)

    carry, losses = L.run_training(chunk, 0, 5)
    assert carry == 6 and losses == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]  # whole chunks, at least 5 losses
    assert points == [("loss", i, float(i)) for i in range(6)]
    points.clear()
    with pytest.raises(L.CheckFailed) as err:
        L.run_training(lambda c: (c + 1, jnp.float32(1.0) / (2 - c)), 0, 10, series="ema")
    assert err.value.en == "the loss became NaN or inf during training (first at step 2)"
    assert [p[1] for p in points] == [0, 1, 2] and points[0][0] == "ema"


def test_lowered_donation_warnings_names_unusable_buffers_without_compiling_a_jit_object():
    def step(state, batch):
        return {"w": state["w"] - batch.mean()}, batch.sum()

    compiles = []

    def on_event(event, duration, **kwargs):
        if event == "/jax/core/compile/backend_compile_duration":
            compiles.append(event)

    both = jax.jit(step, donate_argnums=(0, 1))
    state, batch = {"w": jnp.ones(3)}, jnp.ones((7, 2))
    jax.monitoring.register_event_duration_secs_listener(on_event)
    try:
        said = L.lowered_donation_warnings(both, state, batch)
    finally:
        jax.monitoring.unregister_event_duration_listener(on_event)
    assert said == ["float32[7,2]"] and compiles == []  # the batch has no output to alias
    assert L.lowered_donation_warnings(jax.jit(step, donate_argnums=0), {"w": jnp.ones(3)}, jnp.ones((6, 2))) == []

    def wrapper(state, batch):  # not a jit object: it is called (and its state donated)
        return both(state, batch)

    state = {"w": jnp.ones(3)}
    assert L.lowered_donation_warnings(wrapper, state, jnp.ones((5, 2))) == ["float32[5,2]"]
    assert state["w"].is_deleted()


def test_finite_names_the_first_nan_and_as_float32_casts_every_leaf():
    L.finite({"w": jnp.ones(2)})
    with pytest.raises(L.CheckFailed) as err:
        L.finite({"b": jnp.ones(2), "w": jnp.array([1.0, jnp.nan, jnp.inf])}, what="updates")
    assert err.value.en == "updates['w'][1] is nan: the first NaN or inf appears here"
    tree = L.as_float32({"w": np.ones((2, 3)), "b": [np.float64(1.0), 2]})
    assert {L.type_of(leaf) for leaf in jax.tree.leaves(tree)} == {"float32[2,3]", "float32[]"}


# ---------------------------------------------------------------- tracing


def test_trace_events_counts_jit_traces_with_names():
    def learner_step(x, lr):
        return x - lr

    fixed = jax.jit(learner_step)
    fixed(jnp.float32(1.0), 0.1)
    with L.TraceEvents() as ev:
        for lr in (0.2, 0.3):
            fixed(jnp.float32(1.0), lr)  # same types: jit's cache answers
    assert ev.count == 0 and ev.names == []

    static = jax.jit(learner_step, static_argnums=1)
    with L.TraceEvents() as ev:
        for lr in (0.2, 0.3, 0.4):
            static(jnp.float32(1.0), lr)
    assert ev.count == 3 and set(ev.names) == {"learner_step"}

    def rebuilt_each_call(x):
        return jax.jit(lambda v: v * 2)(x)

    with L.TraceEvents() as ev:
        rebuilt_each_call(jnp.float32(1.0))
        rebuilt_each_call(jnp.float32(1.0))
    assert ev.count == 2


def test_expect_one_program_lets_the_first_call_compile_and_names_every_later_one():
    def step(x, lr):
        return x - lr

    once = jax.jit(step)
    got = L.expect_one_program(lambda lr: once(jnp.float32(1.0), lr), [0.1, 0.2, 0.3], "step", ("rates", "学习率"), "x")
    assert [float(g) for g in got] == pytest.approx([0.9, 0.8, 0.7])

    static = jax.jit(step, static_argnums=1)
    with pytest.raises(L.CheckFailed) as err:
        L.expect_one_program(
            lambda lr: static(jnp.float32(1.0), lr), [0.1, 0.2, 0.3], "step", ("rates", "学习率"), "`static_argnums=1`"
        )
    en = err.value.en
    assert "2 new rates (0.2, 0.3)" in en and "compiled 2 new program(s)" in en and "step" in en
    assert "`static_argnums=1`" in en and "`static_argnums=1`" in err.value.zh


def test_trace_events_leaves_out_eager_control_flow():
    with L.TraceEvents() as ev:
        for _ in range(2):
            lax.cond(True, lambda v: v + 1, lambda v: v - 1, jnp.float32(1.0))
            lax.fori_loop(0, 3, lambda i, c: c + i, jnp.float32(0.0))
            lax.while_loop(lambda c: c < 3, lambda c: c + 1, jnp.float32(0.0))
    assert "cond" not in ev.names and "while" not in ev.names and "scan" not in ev.names


def test_trace_events_fails_loudly_when_jax_renames_its_event(monkeypatch):
    active, event = [], L.TraceEvents.EVENT
    monkeypatch.setattr(
        tracing, "_listen", lambda f: (active.append(f), jax.monitoring.register_event_duration_secs_listener(f))
    )
    monkeypatch.setattr(
        tracing, "_unlisten", lambda f: (active.remove(f), jax.monitoring.unregister_event_duration_listener(f))
    )
    monkeypatch.setattr(L.TraceEvents, "EVENT", "/jax/core/compile/renamed_event")
    with pytest.raises(L.CheckError, match="traces cannot be counted"):
        with L.TraceEvents():
            pass
    assert active == []  # the failed attempt left no listener behind
    monkeypatch.setattr(L.TraceEvents, "EVENT", event)
    with L.TraceEvents() as ev:
        assert len(active) == 1
        jax.jit(lambda v: v - 1)(jnp.float32(0.0))
    assert ev.count == 1 and active == []


def test_outputs_from_jit_accepts_jit_and_thin_wrappers_only():
    def step(x, lr):
        return x - lr * x

    jitted = jax.jit(step)
    x = jnp.array([1.0, 2.0])
    assert L.outputs_from_jit(jitted, x, 0.1)
    assert L.outputs_from_jit(lambda v: jitted(v, 0.1), x)
    assert not L.outputs_from_jit(step, x, 0.1)
    assert not L.outputs_from_jit(lambda v: jitted(v, 0.1) + 1, x)  # the last operation runs outside jit


# ---------------------------------------------------------------- calling learner code


def test_call_labels_exceptions_and_explains_unhashable_static_arguments():
    def update_counter(count, increment):
        return count + 1, increment

    wrong = jax.jit(update_counter, static_argnums=1)
    with pytest.raises(ValueError, match="Non-hashable static arguments") as err:
        L.call(wrong, jnp.int32(0), jnp.int32(7), label=("update_counter(0, 7)", "update_counter(0, 7) 调用"))
    why = L.explain_error(err.value)
    assert (why.label_en, why.label_zh, why.name) == (
        "update_counter(0, 7)",
        "update_counter(0, 7) 调用",
        "update_counter",
    )
    assert "received a jax.Array" in why.hint_en and "update_counter marks `increment` static" in why.hint_en
    assert "`increment` 标成了静态参数" in why.hint_zh

    counter = L.traced(jax.jit(update_counter, static_argnames="count"))
    with pytest.raises(ValueError) as err:
        L.call(counter, {"a": jnp.int32(0)}, jnp.int32(1))
    why = L.explain_error(err.value)
    assert (
        why.label_en == "update_counter(...)"
        and "received a dict" in why.hint_en
        and "marks `count` static" in why.hint_en
    )

    with pytest.raises(ZeroDivisionError) as err:
        L.call(lambda: 1 / 0, label="divide")
    assert L.explain_error(err.value) == L.Explanation("divide", "divide", "<lambda>", "", "")
    assert L.explain_error(KeyError("k")) == L.Explanation()
    assert L.call(update_counter, 1, 2) == (2, 2)


def _run_check(code, source="def f(x):\n    return x\n"):
    """`code` as the body of a check function taking the learner module, run by the harness."""
    import textwrap
    import types

    from tutor.child import harness
    from tutor.protocol import CheckSpec

    module = types.ModuleType("learner")
    module.__file__ = "/learner/learner.py"
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    scope = {"jax": jax, "jnp": jnp, "np": np, **{name: getattr(L, name) for name in L.__all__}}
    body = "def c(learner):\n" + textwrap.indent(code, "    ") + "\n"
    exec(compile(body, "/course/checks.py", "exec"), scope)
    return harness.run_check(
        CheckSpec("c", origin="/course/checks.py:1"), scope["c"], module, module.__file__
    ).to_wire()


def test_a_check_function_takes_what_it_names_from_the_learner_file():
    """Parameters name definitions; a missing one fails naming it, before the body runs."""
    from tutor.child import harness
    from tutor.protocol import CheckSpec

    module = types.ModuleType("learner")
    exec("def f(x):\n    return 2 * x\n", module.__dict__)

    @L.check("doubles")
    def doubles(f, learner):
        L.expect(f(3) == 6 and learner.f is f, "f(3) should be 6")

    @L.check("needs-g")
    def needs_g(g):
        raise AssertionError("never reached")

    assert harness.run_check(CheckSpec("doubles"), doubles, module, "l.py").status == "pass"
    missing = harness.run_check(CheckSpec("needs-g"), needs_g, module, "l.py")
    assert missing.status == "fail" and "does not define `g`" in missing.message.en
    gone = harness.run_check(CheckSpec("gone"), None, module, "l.py")
    assert gone.status == "error" and "no @check function for 'gone'" in gone.message.en
    assert doubles.__check__ == L.CheckDef("doubles", (), False)


def test_harness_names_the_call_and_adds_the_static_argument_hint():
    source = "import jax\nfrom functools import partial\n\n@partial(jax.jit, static_argnames='scale')\ndef scaled(x, scale):\n    return x * scale\n"
    result = _run_check("call(learner.scaled, jnp.ones(2), jnp.float32(2.0), label='scaled(x, 2)')", source)
    assert result["status"] == "fail"
    en, zh = result["message"]["en"], result["message"]["zh"]
    assert en.startswith(
        "scaled(x, 2) failed inside JAX, outside your own lines:\nValueError: Non-hashable static arguments"
    )
    assert "scaled marks `scale` static" in en and "keep those arguments dynamic" in en
    assert zh.startswith("scaled(x, 2) 在 JAX 内部出错") and "`scale` 标成了静态参数" in zh
    # the hint also comes without `call`
    result = _run_check("learner.scaled(jnp.ones(2), jnp.float32(2.0))", source)
    assert result["message"]["en"].startswith("using what your code defined or returned raised an error")
    assert "argument marked static" in result["message"]["en"] and "marks `scale`" not in result["message"]["en"]
    # an error in the learner's own lines names the call and shows those lines
    result = _run_check("call(learner.f, 1, label='f(1)')", "def f(x):\n    return x / 0\n")
    assert result["status"] == "fail" and result["message"]["en"].startswith(
        "your code raised an exception in f(1), called with 1:"
    )
    assert "line 2, in f" in result["message"]["en"] and "ZeroDivisionError" in result["message"]["en"]
    # other JAX errors outside the learner's lines say where to look
    result = _run_check("call(learner.g, 1, label='g(1)')", "import jax\ng = jax.jit(lambda x: object())\n")
    assert result["status"] == "fail" and "Look at how <lambda> is wrapped" in result["message"]["en"]


def test_a_checks_own_mistake_is_an_error_not_the_learners_failure():
    """A check that misuses the tutor's own objects could not judge: its error must not read as
    the learner's failure (a mutant would then "fail as it should" for the wrong reason). What the
    learner's code returned lacking an attribute, or their function called with the wrong
    arguments, stays their failure."""
    own = _run_check("counter = traced(learner.f, 'f')\ncounter.fn(1)")
    assert own["status"] == "error" and "TraceCounter" in own["message"]["en"], own
    assert "checks.py line 3" in own["message"]["en"]  # line 1 is the def
    helper = _run_check("close(learner.f(1))")
    assert helper["status"] == "error" and "close()" in helper["message"]["en"], helper
    returned = _run_check("learner.f(None).count")
    assert returned["status"] == "fail" and "'NoneType' object has no attribute 'count'" in returned["message"]["en"]
    called = _run_check("learner.f(1, 2)")
    assert called["status"] == "fail" and "f() takes 1 positional argument" in called["message"]["en"], called
    shadowing = _run_check("learner.close(1)", "def close(x, y):\n    return x\n")
    assert shadowing["status"] == "fail", shadowing  # the learner's own `close`, not the library's


def test_harness_puts_back_what_learner_code_rebinds_in_any_library_module():
    """The library is a package: a learner's file may reach into any of its modules, not only
    the one checks.py imports from; loading it puts every rebound name back."""
    from tutor.child import harness
    from tutor.child.library import originals, values

    close, jit = values.close, originals.jit
    source = (
        "import tutor.child.library.values as v, tutor.child.library.originals as o, tutor.child.library as lib\n"
        "v.close = o.jit = lib.expect = lambda *a, **k: None\n"
    )
    harness.load_learner(source, "/learner/patches.py")
    assert values.close is close and originals.jit is jit and L.expect is not None
    from tutor.child import optimizers  # the optimizer exercises' helpers are guarded too

    unpack = optimizers.unpack
    harness.load_learner("import tutor.child.optimizers as o\no.unpack = None\n", "/learner/patches.py")
    assert optimizers.unpack is unpack
    with pytest.raises(L.CheckFailed):
        L.expect(False, "still judges")


def test_harness_reports_check_error_as_error_not_fail(monkeypatch):
    from tutor.child import tamper

    # JAX renaming its event is not learner tampering: forget what earlier tests of this process
    # kept as the judge (a worker keeps it once, before the learner's file), so it is not put back
    for name, empty in (("_namespaces", []), ("_functions", []), ("_seen", set()), ("changed", [])):
        monkeypatch.setattr(tamper, name, empty)
    monkeypatch.setattr(L.TraceEvents, "EVENT", "/jax/core/compile/renamed_event")
    result = _run_check("with TraceEvents() as ev:\n    learner.f(1)\nexpect(ev.count == 0, 'retraced')")
    assert result["status"] == "error" and "traces cannot be counted" in result["message"]["en"]


def test_every_exercise_checks_file_imports_what_the_library_has():
    """A name a checks.py imports from the library that the library no longer has would turn
    every check of that exercise into an error: caught here, before any learner meets it."""
    import ast
    import importlib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "lessons" / "exercises"
    missing = []
    for path in sorted(root.glob("*/checks.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("tutor."):
                module = importlib.import_module(node.module)
                missing += [
                    f"{path.parent.name}: {node.module}.{a.name}" for a in node.names if not hasattr(module, a.name)
                ]
    assert not missing, missing
