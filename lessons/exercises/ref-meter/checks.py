"""The checks of `ref-meter`: A metrics meter that lives in a Ref."""

import jax
import jax.numpy as jnp
import numpy as np

from tutor.child.library import (
    call,
    check,
    close,
    device_rtol,
    expect,
    expect_counts_past_edges,
    expect_no_hidden_state,
    expect_traces,
    finite_twin,
    is_defined,
    raises,
    special_where,
    traced,
    type_of,
    x64_note,
)


def contents(meter, what):
    """The meter's value as float64 NumPy, judged as a Ref of float32[2]."""
    expect(
        isinstance(meter, jax.Ref),
        f"{what} is {type_of(meter)}, not a jax.Ref: nothing can be written into it in place",
        f"{what} 是 {type_of(meter)}，不是 jax.Ref：没有办法就地往里写",
    )
    return np.asarray(meter[...], dtype=np.float64)


# Batches of different sizes, with zeros (a meter counts values, not nonzero values), negatives,
# and a sum past float16's largest value (65504) that float32 holds exactly.
batches = [
    np.array([1.0, 2.0, 3.0]),
    np.array([6.0]),
    np.array([-2.5, 0.0, 4.0, 10.0, 0.0, 1.0]),
    np.array([40000.0, 30000.0, 0.0, -5000.0]),
]
# What each batch tests, named when the meter goes wrong there.
edges = [
    ("", ""),
    (": a batch of one", "：只有一个数的批次"),
    (": negatives, zeros and a non-integer", "：含负数、0 和非整数"),
    (": a sum past float16's largest value, 65504", "：总和超过 float16 的最大值 65504"),
]


@check("defines")
def check_defines(new_meter, record):
    is_defined(new_meter=new_meter, record=record)


@check("fresh-meter", depends=["defines"])
def check_fresh_meter(new_meter):
    cannot_return = call(raises, new_meter, types=("ValueError",), match="cannot be returned", label="new_meter()")
    expect(
        cannot_return is None,
        "new_meter() raised ValueError: a function under jax.jit cannot return a Ref. Leave new_meter "
        "unjitted: a Ref made inside a jitted call can be used there, but only its value can leave it",
        "new_meter() 抛出了 ValueError：jax.jit 下的函数不能返回 Ref。new_meter 不要用 jit 编译："
        "在 jit 调用里创建的 Ref 可以在里面使用，但能离开调用的只有它的值",
    )
    meter = call(new_meter, label="new_meter()")
    expect(
        isinstance(meter, jax.Ref),
        f"new_meter() returned {type_of(meter)} ({type(meter).__name__}), not a jax.Ref. A JAX array "
        "is immutable, so record() could never change it; jax.new_ref(...) makes a mutable reference",
        f"new_meter() 返回的是 {type_of(meter)}（{type(meter).__name__}），不是 jax.Ref。JAX 数组不可变，"
        "record() 永远改不了它；要用 jax.new_ref(...) 创建可变引用",
    )
    # float32 is what the exercise asks for, in both modes: under JAX_ENABLE_X64 an unnamed
    # dtype gives float64, and the message says so.
    x64_en, x64_zh = x64_note(meter, expected=jnp.float32)
    expect(
        meter.shape == (2,) and meter.dtype == jnp.float32,
        f"new_meter() holds {type_of(meter)}; expected Ref{{float32[2]}}: [values seen, their sum]{x64_en}",
        f"new_meter() 里装的是 {type_of(meter)}；应为 Ref{{float32[2]}}：[见过的个数，总和]{x64_zh}",
    )
    close(np.asarray(meter[...]), np.zeros(2), what=("the contents of a new meter", "新统计器的内容"))


@check("accumulates", depends=["fresh-meter"])
def check_accumulates(new_meter, record):
    meter = new_meter()
    count = total = 0.0
    for k, batch in enumerate(batches, start=1):
        call(record, meter, jnp.asarray(batch, jnp.float32), label=f"record(meter, batch {k})")
        count, total = count + batch.size, total + batch.sum()
        got = contents(meter, "the meter")
        zeros = int(np.sum(batch == 0))
        expect(
            not (zeros and got.shape == (2,) and got[0] == count - zeros),
            f"after batch {k} ({batch.size} values, {zeros} of them 0.0) the count is {got[0]:g}, not "
            f"{count:g}: the zeros were not counted. A meter counts every value recorded (batch.size), "
            "not the nonzero ones",
            f"记录第 {k} 批（{batch.size} 个数，其中 {zeros} 个是 0.0）之后，个数是 {got[0]:g} 而不是 "
            f"{count:g}：0 没有被计入。统计器要数的是记录过的每一个值（batch.size），而不是非零值",
        )
        expect(
            not (
                got.shape == (2,)
                and got[0] == count
                and abs(got[1] - total) > 1e-5 * abs(total)
                and abs(got[1] - total) < 1e-2 * abs(total)
            ),
            f"after batch {k} the sum is {got[1]:.6g}, not {total:.6g}: close, but rounded. Sum in "
            "float32 (the meter's dtype): float16 or bfloat16 cannot hold these values exactly",
            f"记录第 {k} 批之后，总和是 {got[1]:.6g} 而不是 {total:.6g}：接近，但被舍入了。要用 float32"
            "（统计器的 dtype）求和：float16 或 bfloat16 无法精确表示这些值",
        )
        close(
            got,
            np.array([count, total]),
            what=(
                f"the meter after batch {k} of {batch.size} values{edges[k - 1][0]} ([count, sum])",
                f"记录第 {k} 批（{batch.size} 个数{edges[k - 1][1]}）之后的统计器（[个数，总和]）",
            ),
        )
    # An empty batch (a filter that kept nothing, an epoch's empty tail) adds nothing. The mean of
    # no values is NaN, so a sum taken as mean * size turns the meter into NaN here, and only here.
    call(record, meter, jnp.zeros(0, jnp.float32), label="record(meter, empty batch)")
    close(
        contents(meter, "the meter"),
        np.array([count, total]),
        what=(
            "the meter after an empty batch (0 values: count and sum stay as they were; the mean of no values "
            "is NaN, so add jnp.sum(batch), not mean * size)",
            "记录一个空批次之后的统计器（0 个数：个数和总和都不变；空批次的平均值是 NaN，"
            "所以要加 jnp.sum(batch)，而不是平均值 × 个数）",
        ),
    )
    # inf and NaN, where the task defines the answer as for any value: the count grows by the
    # batch's size and the sum by its sum, NaN and inf included.
    for batches_seen in SPECIAL_BATCHES:
        _judge_specials(new_meter, record, batches_seen, mean=False)


def _judge_specials(new_meter, record, batches_seen, mean):
    """A stream with NaN or inf on a fresh meter, judged where its finite twin (the same stream
    with 5.0 in their place, on another fresh meter) comes out right: what goes wrong is then the
    special values' doing. `mean`: judge the mean returned, else the meter's contents."""
    for twin in (True, False):
        meter, seen = new_meter(), np.zeros(0)
        for batch in batches_seen:
            given = finite_twin(batch) if twin else np.asarray(batch, np.float64)
            out = call(record, meter, jnp.asarray(given, jnp.float32), label=f"record(meter, {batch})")
            seen = np.concatenate([seen, given])
            got = out if mean else contents(meter, "the meter")
            want = seen.mean() if mean else [seen.size, seen.sum()]
            if twin:
                ok = np.allclose(np.asarray(got, np.float64), want, rtol=device_rtol(1e-5), atol=1e-6)
                if not ok:
                    return  # wrong without the special values too: the other checks name it
                continue
            what = (
                (
                    f"the mean returned by a fresh meter after {seen.tolist()}",
                    f"新统计器记录 {seen.tolist()} 之后返回的平均值",
                )
                if mean
                else (f"a fresh meter after recording {seen.tolist()}", f"新统计器记录 {seen.tolist()} 之后")
            )
            special_where(got, want, what, SKIPS)


# What a meter fed inf or NaN gets wrong, named after the special value of its batch.
SKIPS = (
    "A meter counts every value recorded (batch.size) and adds its sum (jnp.sum): a NaN recorded makes the sum "
    "and the mean NaN, and an inf makes them inf, so that the caller sees the bad batch. jnp.nansum, or a mask "
    "of finite values, hides it and changes the count or the sum",
    "统计器要数记录过的每一个值（batch.size），并加上它们的总和（jnp.sum）：记录了 NaN，总和与平均值就是 NaN；"
    "记录了 inf，它们就是 inf，调用方才能发现这批数据有问题。jnp.nansum 或只保留有限值的掩码会把它藏起来，"
    "并改变个数或总和",
)
# Batches holding NaN and inf, each stream recorded on a fresh meter; of the sizes of `batches`
# (3 and 1), so no new programs.
SPECIAL_BATCHES = ([[1.0, np.nan, 2.0], [4.0]], [[np.inf, 1.0, -2.0], [-3.0]])


@check("returns-mean", depends=["accumulates"])
def check_returns_mean(new_meter, record):
    meter = new_meter()
    seen = np.zeros(0)
    for k, batch in enumerate(batches, start=1):
        out = call(record, meter, jnp.asarray(batch, jnp.float32), label=f"record(meter, batch {k})")
        seen = np.concatenate([seen, batch])
        expect(
            out is not None and not isinstance(out, jax.Ref),
            f"record(meter, batch {k}) returned {'None' if out is None else type_of(out)}: it should return "
            "the running mean as an array (the meter itself stays with the caller)",
            f"record(meter, batch {k}) 返回了 {'None' if out is None else type_of(out)}：应当以数组形式返回"
            "当前的平均值（统计器本身留在调用方手里）",
        )
        close(
            out,
            np.float64(seen.mean()),
            what=(
                f"the mean returned after batch {k} (all {seen.size} values so far)",
                f"第 {k} 批之后返回的平均值（迄今全部 {seen.size} 个数）",
            ),
        )
    # The mean of values holding NaN is NaN, of values holding inf inf (or NaN for inf - inf)
    for batches_seen in SPECIAL_BATCHES:
        _judge_specials(new_meter, record, batches_seen, mean=True)


@check("meters-independent", depends=["accumulates"])
def check_meters_independent(record, new_meter):
    a, b = new_meter(), new_meter()
    expect(
        a is not b,
        "new_meter() returned the same Ref object twice: each call must create a meter of its own",
        "new_meter() 两次返回了同一个 Ref 对象：每次调用都必须新建一个统计器",
    )
    call(record, a, jnp.asarray(batches[0], jnp.float32), label="record(a, [1, 2, 3])")
    close(
        contents(b, "meter b"),
        np.zeros(2),
        what=("meter b after recording [1, 2, 3] into meter a", "往 a 里记录 [1, 2, 3] 之后的统计器 b"),
    )
    call(record, b, jnp.asarray(batches[1], jnp.float32), label="record(b, [6])")
    close(
        contents(a, "meter a"),
        np.array([3.0, 6.0]),
        what=("meter a after recording [6] into meter b", "往 b 里记录 [6] 之后的统计器 a"),
    )
    close(
        contents(b, "meter b"),
        np.array([1.0, 6.0]),
        what=("meter b after recording [6] into it", "往 b 里记录 [6] 之后的统计器 b"),
    )


@check("jit-once", depends=["accumulates"])
def check_jit_once(record, new_meter):
    step = traced(record, "record")
    meter = new_meter()
    count = total = 0.0
    for k in range(1, 6):
        batch = np.array([k, -1.5, 0.0, 2.0 * k])
        out = call(step, meter, jnp.asarray(batch, jnp.float32), label=f"jitted record, call {k}")
        count, total = count + batch.size, total + batch.sum()
        close(
            contents(meter, "the meter"),
            np.array([count, total]),
            what=(f"the meter after jitted call {k}", f"jit 后第 {k} 次调用之后的统计器"),
        )
        close(
            out,
            np.float64(total / count),
            what=(f"the mean returned by jitted call {k}", f"jit 后第 {k} 次调用返回的平均值"),
        )
    expect_traces(step, 1, calls=5)


@check("no-hidden-state", depends=["accumulates"])
def check_no_hidden_state(learner):
    def fresh_meter_records(batch):
        """record on a meter of its own: the meter is the state, the rest must be pure."""
        meter = learner.new_meter()
        out = learner.record(meter, batch)
        return out, np.asarray(meter[...])

    batch = jnp.asarray(batches[0], jnp.float32)
    expect_no_hidden_state(learner, fresh_meter_records, batch, label="record(new_meter(), batch)")


@check("long-count", depends=["meters-independent", "jit-once"])
def check_long_count(new_meter, record):
    # A long stream in three batches of one value: the count starts where a narrow float stops
    # counting (bfloat16 at 256, float16 at 2048); the meter's float32 holds both.
    def advance(start):
        meter = new_meter()
        meter[...] = jnp.array([start, 0.0], jnp.float32)
        seen = []
        for _ in range(3):
            call(record, meter, jnp.ones(1, jnp.float32), label="record(meter, [1.0])")
            seen.append(int(contents(meter, "the meter")[0]))
        return seen

    expect_counts_past_edges(
        advance, ("the meter's count, given batches of one value,", "统计器的个数（每批一个值）"), starts=(254, 2046)
    )
