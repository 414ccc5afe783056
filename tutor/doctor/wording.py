"""Every word the doctor says, in English and Chinese, from the findings' data: what was seen,
why it costs you, how the script ended, how many findings. The text report, the JSON `message`
and the TUI screen all word findings here, and only here.

No JAX, no Textual. The worker sends findings as data (tutor.protocol.Finding); their words
exist only in the parent.
"""

from __future__ import annotations

from tutor.doctor.findings import Report
from tutor.i18n import table
from tutor.protocol import Finding

# One table: what each finding says ("kind/code", a variant after a second "/"), why it costs
# the learner ("why:kind/code"), and the report's own sentences.
WORDS = table(
    {
        # ---- what was seen: the first sentence of a finding
        "retrace/new-function": {
            "en": "This `jax.jit({fn})` is built anew on every call ({count} more traces and compiles at this "
            "line): build it once, outside the loop.",
            "zh": "这个 `jax.jit({fn})` 每次调用都被重新构建（在这一行又追踪并编译了 {count} 次）：在循环外构建一次。",
        },
        "retrace/new-function/lax": {
            "en": "`{fn}` was made anew and traced again by `{name}` {count} more times at this line.",
            "zh": "`{fn}` 被重新定义，并在这一行被 `{name}` 又追踪了 {count} 次。",
        },
        "retrace/new-function/pmap": {
            "en": "This `jax.pmap({fn})` is built anew on every call ({count} more traces and compiles at this "
            "line): build it once, outside the loop.",
            "zh": "这个 `jax.pmap({fn})` 每次调用都被重新构建（在这一行又追踪并编译了 {count} 次）：在循环外构建一次。",
        },
        "retrace/rewrapped": {
            "en": "`jax.jit({fn})` was made anew {count} more times at this line.",
            "zh": "`jax.jit({fn})` 在这一行又被重新创建了 {count} 次。",
        },
        "retrace": {
            "en": "`{fn}` was traced again {times} from this call{seen}.",
            "zh": "`{fn}` 在这次调用处被重新追踪了 {times}{seen}。",
        },
        "retrace/seen": {"en": ": {explanation}", "zh": "：{explanation}"},
        # the doctor's own comparison of this call with the one that traced before it
        "change/structure": {
            "en": "`{path}` has another structure ({before} -> {now})",
            "zh": "`{path}` 的结构变了（{before} -> {now}）",
        },
        "change/structure/static": {
            "en": "`{path}` has the same leaves under another static part of its structure",
            "zh": "`{path}` 的叶子没变，但其结构中的静态部分变了",
        },
        "change/shape": {"en": "`{path}` is {now}, was {before}", "zh": "`{path}` 现在是 {now}，之前是 {before}"},
        "change/weak-type": {
            "en": "`{path}` is {now}, was {before} (its weak type changed)",
            "zh": "`{path}` 现在是 {now}，之前是 {before}（弱类型变了）",
        },
        "change/new-object": {
            "en": "`{path}` is a new {before} object, not equal to the one before",
            "zh": "`{path}` 是一个新的 {before} 对象，与上一次的不相等",
        },
        "change/new-object/attributes": {
            "en": "`{path}` is a new {before} object, not equal to the one before ({now})",
            "zh": "`{path}` 是一个新的 {before} 对象，与上一次的不相等（{now}）",
        },
        "change/new-object/leaves": {
            "en": "`{path}` is a new {before} object whose {now} were made anew, never equal to the ones before",
            "zh": "`{path}` 是一个新的 {before} 对象，其中的 {now} 都是重新创建的，与上一次的永不相等",
        },
        "change/value": {
            "en": "`{path}` (static) is {now}, was {before}",
            "zh": "`{path}`（静态）现在是 {now}，之前是 {before}",
        },
        "change/against": {
            "en": " (compared with the call that traced it before)",
            "zh": "（与上一次触发追踪的调用相比）",
        },
        "change/witness": {
            "en": " JAX, against its closest cached call: {explanation}.",
            "zh": "JAX 对照它最接近的缓存调用给出的说明：{explanation}。",
        },
        "key-reuse/reused/same-line": {
            "en": "A PRNG key consumed at this line on an earlier pass was consumed here again, {times}.",
            "zh": "同一个 PRNG key 在这一行之前的某一轮已经用过，这里又被使用了 {times}。",
        },
        "key-reuse/reused/first-at": {
            "en": "A PRNG key already consumed (first consumed at line {first}) was consumed again here, {times}.",
            "zh": "一个已经用过的 PRNG key（第一次在第 {first} 行被使用）在这里又被使用了 {times}。",
        },
        "key-reuse/reused": {
            "en": "A PRNG key already consumed was consumed again here, {times}.",
            "zh": "一个已经用过的 PRNG key 在这里又被使用了 {times}。",
        },
        "key-reuse/reused/vmap": {
            "en": "This vmap gives {count} of its rows a PRNG key another row also gets (consumed at line "
            "{first}): those rows draw the same random numbers.",
            "zh": "这个 vmap 有 {count} 行拿到的 PRNG key 与另一行相同（在第 {first} 行被使用）：这些行抽到的随机数一模一样。",
        },
        "key-reuse/loop-constant/returned": {
            "en": "The loop body splits the PRNG key of its carry but hands the old key back here, so every "
            "pass splits the same key: the same random numbers on every pass.",
            "zh": "循环体 split 了 carry 里的 PRNG key，却在这里把旧的 key 放回了 carry，"
            "于是每一轮 split 的都是同一个 key：每一轮的随机数都一样。",
        },
        "key-reuse/remade/fold_in": {
            "en": "This line folds the same number into the same PRNG key on every pass, so it makes the same key "
            "each time, consumed at line {first}: the same random numbers again, {times}.",
            "zh": "这一行每一轮都把同一个数 fold_in 进同一个 PRNG key，得到的是同一个 key，每次都在第 {first} 行被使用："
            "同样的随机数又出现了 {times}。",
        },
        "key-reuse/loop-constant": {
            "en": "The body of a loop consumes a PRNG key that is the same on every pass: one from outside "
            "the loop, or one it hands back in its carry without splitting it.",
            "zh": "循环体使用的 PRNG key 每一轮都相同：要么来自循环外，要么被原样放回了 carry 而没有 split。",
        },
        "key-reuse/remade": {
            "en": "This line makes the same PRNG key from one seed anew on every pass, consumed at line {first} "
            "each time: the same random numbers again, {times}.",
            "zh": "这一行每一轮都用同一个种子重新创建同一个 PRNG key，每次都在第 {first} 行被使用：同样的随机数又出现了 "
            "{times}。",
        },
        "key-reuse/handed-back": {
            "en": "`{fn}` returns here the PRNG key it consumed (at line {first}) unchanged, so the next step "
            "consumes the same key again: {times}.",
            "zh": "`{fn}` 在这里原样返回了它已经用过的 PRNG key（在第 {first} 行使用），于是下一步又用了同一个 key：{times}。",
        },
        "key-reuse/handed-down": {
            "en": "This call hands down a PRNG key that is consumed twice (first at line {first}): the same "
            "random numbers again, {times}.",
            "zh": "这次调用把一个会被使用两次的 PRNG key 传了下去（第一次在第 {first} 行使用）：同样的随机数又出现了 "
            "{times}。",
        },
        "key-reuse/kept": {
            "en": "`{fn}` splits the PRNG key it was given and keeps the rest: its caller still holds that key and "
            "consumes it again, {times}.",
            "zh": "`{fn}` split 了传给它的 PRNG key，却把剩下的留在自己手里：调用者手里仍是那个 key，又用了一次，{times}。",
        },
        "key-reuse/same-seed": {
            "en": "Two keys were made here from the same seed, and keys derived from both were drawn from: "
            "streams meant to be independent share their source.",
            "zh": "这里用同一个种子创建了两个 key，而且由它们派生的 key 都被用来抽样：本应相互独立的流有同一个来源。",
        },
        "side-effect/print": {
            "en": "print was called while `{fn}` was being traced ({times}).",
            "zh": "`{fn}` 被追踪时调用了 print（{times}）。",
        },
        "side-effect/global": {
            "en": "The global `{name}` was rebound while `{fn}` was being traced.",
            "zh": "`{fn}` 被追踪时，全局变量 `{name}` 被重新赋值。",
        },
        "side-effect/mutation": {
            "en": "`{name}` was changed in place while `{fn}` was being traced.",
            "zh": "`{fn}` 被追踪时，`{name}` 被原地修改。",
        },
        "side-effect/rebound": {
            "en": "`{name}`, a variable of an enclosing function, was rebound while `{fn}` was being traced.",
            "zh": "`{fn}` 被追踪时，外层函数的变量 `{name}` 被重新赋值。",
        },
        "side-effect/iterator": {
            "en": "The iterator `{name}` was advanced while `{fn}` was being traced.",
            "zh": "`{fn}` 被追踪时，迭代器 `{name}` 被向前推进了。",
        },
        "side-effect/stale": {
            "en": "`{name}` changed after `{fn}` was traced, which read it once; later calls ran the program "
            "compiled with the old value ({times}).",
            "zh": "`{fn}` 被追踪时只读取了一次 `{name}`，之后它被改变了；之后的调用运行的仍是用旧值编译的程序（{times}）。",
        },
        "side-effect/captured": {
            "en": "`{name}` changed here after `{fn}` was traced, which read it once ({read}); {times} the compiled "
            "program ran with the old value.",
            "zh": "`{fn}` 被追踪时只读取了一次 `{name}`（{read}），它在这里被改变；之后 {times} 调用运行的仍是用旧值编译的程序。",
        },
        "donation/deleted": {
            "en": "A donated array was used after the call that consumed it.",
            "zh": "一个被捐赠的数组在消耗它的调用之后又被使用了。",
        },
        "donation/aliased": {
            "en": "This call donates one array twice: {pair} are the same array{more}.",
            "zh": "这次调用把同一个数组捐赠了两次：{pair} 是同一个数组{more}。",
        },
        "donation/aliased/unnamed": {
            "en": "This call donates one array twice: two leaves of its arguments are the same array.",
            "zh": "这次调用把同一个数组捐赠了两次：它的参数里有两个叶子是同一个数组。",
        },
        "aliased/pair": {"en": "`{a}` and `{b}`", "zh": "`{a}` 和 `{b}`"},
        "aliased/more": {"en": ", and so are {n} more pairs of leaves", "zh": "，另外还有 {n} 对叶子也是如此"},
        "aliased/more1": {"en": ", and so is 1 more pair of leaves", "zh": "，另外还有 1 对叶子也是如此"},
        "donation/unusable": {
            "en": "Donated buffers were not usable: {types} ({count} compile(s)).",
            "zh": "被捐赠的缓冲区没能被复用：{types}（编译 {count} 次）。",
        },
        "host-sync/per-step": {
            "en": "A device value was pulled to the host ({via}) {count} times at this line in the loop around `{fn}`.",
            "zh": "在调用 `{fn}` 的循环里，这一行把设备上的值拉回主机（{via}）共 {count} 次。",
        },
        "host-sync/per-step/no-jit": {
            "en": "A device value was pulled to the host ({via}) {count} times at this line in a loop.",
            "zh": "在循环里，这一行把设备上的值拉回主机（{via}）共 {count} 次。",
        },
        "nan/first": {
            "en": "The first NaN/inf came out of `{primitive}`.",
            "zh": "第一个 NaN/inf 出自 `{primitive}`。",
        },
        "key-reuse/constant": {
            "en": "The same key is consumed here on every call ({times}); a key kept constant on purpose "
            "(a fixed evaluation key, a key cloned to reproduce samples) is fine.",
            "zh": "这一行每次调用都使用同一个 key（{times}）；如果是有意保持不变（固定的评估 key、为复现样本而复制的 "
            "key），这没有问题。",
        },
        "crash/immutable": {
            "en": "The script stopped here: it assigned into a JAX array in place (`x[i] = ...`).",
            "zh": "脚本停在这里：它对 JAX 数组做了原地赋值（`x[i] = ...`）。",
        },
        "crash/concretization": {
            "en": "The script stopped here: a traced value was used where Python needs a concrete one "
            "(ConcretizationTypeError).",
            "zh": "脚本停在这里：在 Python 需要具体数值的地方用了追踪值（ConcretizationTypeError）。",
        },
        "crash/tracer-bool": {
            "en": "The script stopped here: a traced value decided a Python `if` / `while` / `and` "
            "(TracerBoolConversionError).",
            "zh": "脚本停在这里：用追踪值决定了 Python 的 `if` / `while` / `and`（TracerBoolConversionError）。",
        },
        "crash/leaked-tracer": {
            "en": "The script stopped here: a tracer escaped the function that was traced and was used later "
            "(UnexpectedTracerError).",
            "zh": "脚本停在这里：一个追踪值逃出了被追踪的函数，之后又被使用（UnexpectedTracerError）。",
        },
        "crash/key-reuse-error": {
            "en": "The script stopped here: JAX's key-reuse checker caught a key used twice (KeyReuseError).",
            "zh": "脚本停在这里：JAX 的 key 复用检查器发现一个 key 被用了两次（KeyReuseError）。",
        },
        "noticed-at/nan": {
            "en": "JAX's check stopped later, at line {noticed}, where the value spread.",
            "zh": "JAX 的检查在后面第 {noticed} 行才停下，那里只是这个值扩散到的地方。",
        },
        "noticed-at/key-reuse": {
            "en": "The reuse shows at line {noticed}.",
            "zh": "复用在第 {noticed} 行显现出来。",
        },
        "made-at": {
            "en": "That key was made at line {made}: the seed, or the state that carries it, to change if each "
            "step should get a new key.",
            "zh": "这个 key 是在第 {made} 行创建的：如果每一步都该拿到新 key，就改那里的种子或携带它的状态。",
        },
        "inside": {
            "en": "This happens inside {library} (`{place}`), called from your line {line}: the library consumes "
            "the key again within that one call, not your code.",
            "zh": "这发生在 {library} 内部（`{place}`），由你的第 {line} 行调用进去：是这个库在这一次调用里再次使用了 key，"
            "而不是你的代码。",
        },
        "cost/host-sync": {
            "en": "The script waited {seconds:.2f} s in those pulls.",
            "zh": "脚本在这些拉取上共等待了 {seconds:.2f} 秒。",
        },
        "cost/retrace": {
            "en": "Tracing and compiling it again took {seconds:.2f} s.",
            "zh": "重新追踪和编译它共耗时 {seconds:.2f} 秒。",
        },
        "once": {"en": "once", "zh": "1 次"},
        "n_times": {"en": "{n} times", "zh": "{n} 次"},
        # ---- why it costs you, in the learner's terms
        "why:retrace/weak-type": {
            "en": "One call got a weakly typed value (a Python number), another a typed array, so JAX "
            "compiled the function again. Start the state with its final dtype and shape (jnp.float32(0.0), "
            "jnp.zeros(3), jnp.zeros_like).",
            "zh": "一次调用传入的是弱类型的值（Python 数字），另一次传入的是有确定 dtype 的数组，于是 JAX "
            "又编译了一遍。初始状态直接给出最终的 dtype 和形状（jnp.float32(0.0)、jnp.zeros(3)、jnp.zeros_like）。",
        },
        "why:retrace/shape": {
            "en": "Each new shape or dtype is a new program: JAX traces and compiles again, every time. Keep "
            "shapes fixed (pad the last batch, or drop it).",
            "zh": "每出现一种新的形状或 dtype，就是一个新程序：JAX 每次都要重新追踪、重新编译。让形状保持不变"
            "（把最后一个批次补齐，或者丢掉）。",
        },
        "why:retrace/structure": {
            "en": "The argument's PyTree structure changed (keys, fields, list length), and each structure is "
            "compiled separately. Give the state the same structure on every call.",
            "zh": "参数的 PyTree 结构变了（键、字段、列表长度），每种结构都要单独编译一次。让状态在每次调用时结构都一样。",
        },
        "why:retrace/static": {
            "en": "A static argument took a new value, and every new value costs a full compile. Static is for "
            "structure (shapes, flags); pass numbers such as a learning rate as ordinary arguments.",
            "zh": "静态参数换了一个新值，每个新值都要完整编译一次。静态参数只适合结构（形状、开关）；学习率这样"
            "的数值应作为普通参数传入。",
        },
        "why:retrace/static/new-object": {
            "en": "A jit keeps non-array arguments static (eqx.filter_jit keeps every one) and compares a static "
            "value with the last by equality: a new optimizer, config or function object is never equal, so each "
            "new one costs a full compile. Make it once, outside the loop, and pass what changes (a learning "
            "rate) as an array argument, or through the optimizer's state (optax.inject_hyperparams).",
            "zh": "jit 会把非数组参数当作静态参数（eqx.filter_jit 对所有非数组参数都这样），并按相等性与上一次的值比较："
            "新建的优化器、配置或函数对象永远不相等，所以每新建一个就要完整编译一次。在循环外只创建一次，把会变化的量"
            "（如学习率）作为数组参数传入，或放进优化器的状态里（optax.inject_hyperparams）。",
        },
        "why:retrace/new-function": {
            "en": "jax.jit is applied to a new function object on every pass (jit inside a loop, a lambda or a "
            "functools.partial made per call), so the compile cache never hits. A value that changes (eps=...) "
            "goes in as an argument of the one jitted function.",
            "zh": "每一轮都对一个新的函数对象调用 jax.jit（在循环里 jit，或每次新建一个 lambda 或 functools.partial），"
            "编译缓存永远命中不了。会变化的值（eps=...）作为参数传给那一个 jit 过的函数。",
        },
        "why:retrace/new-function/pmap": {
            "en": "jax.pmap compiles once per function object: a new functools.partial or lambda handed to it on "
            "every pass is a new function each time, traced and compiled again for every device. A value that "
            "changes (clip=...) goes in as an argument of the one pmapped function (replicated, or with "
            "in_axes=None).",
            "zh": "jax.pmap 按函数对象编译：每一轮都交给它一个新的 functools.partial 或 lambda，每次都是新函数，"
            "都要为每个设备重新追踪、重新编译。会变化的值（clip=...）作为那一个 pmap 过的函数的参数传入（复制到各设备，"
            "或用 in_axes=None）。",
        },
        "why:retrace/new-function/lax": {
            "en": "lax caches the trace of a loop body or branch by the function object: a function defined inside "
            "the loop (a new closure on every pass) is a new function each time, traced and compiled again. "
            "Define it once, outside the loop, and pass what changes in as the loop's operands or carry.",
            "zh": "lax 按函数对象缓存循环体或分支的追踪结果：在循环里定义的函数（每一轮都是一个新的闭包）每次都是"
            "新函数，都要重新追踪、重新编译。在循环外定义一次，把会变化的量作为操作数或 carry 传进去。",
        },
        "why:retrace/rewrapped/retraced": {
            "en": "Every call goes through a new jit object, whose dispatch is several times slower than calling "
            "one made once; here the function was traced {traced} times as well. Jit once, outside the loop (or "
            "decorate the function), and call the result.",
            "zh": "每次调用都经过一个新建的 jit 对象，其调度比调用一次性创建好的对象慢好几倍；这里这个函数还被追踪了 "
            "{traced} 次。在循环外 jit 一次（或用装饰器），然后反复调用它。",
        },
        "why:retrace/rewrapped/unknown": {
            "en": "Every call goes through a new jit object, whose dispatch is several times slower than calling "
            "one made once. Jit once, outside the loop (or decorate the function), and call the result.",
            "zh": "每次调用都经过一个新建的 jit 对象，其调度比调用一次性创建好的对象慢好几倍。在循环外 jit 一次"
            "（或用装饰器），然后反复调用它。",
        },
        "why:retrace/rewrapped": {
            "en": "JAX caches the trace by function, so this traced once, but every call goes through a new jit "
            "object, whose dispatch is several times slower than calling one made once. Jit once, outside "
            "the loop (or decorate the function), and call the result.",
            "zh": "JAX 按函数缓存追踪结果，所以这里只追踪了一次，但每次调用都经过一个新建的 jit 对象，"
            "其调度比调用一次性创建好的对象慢好几倍。在循环外 jit 一次（或用装饰器），然后反复调用它。",
        },
        "why:retrace/unexplained": {
            "en": "JAX compiled it again without saying why (on this JAX version that is usually a new value for "
            "a static argument). Each retrace costs a full compile.",
            "zh": "JAX 又编译了一遍，却没有说明原因（在这个 JAX 版本上，通常是静态参数换了新值）。每次重新追踪"
            "都要付出一次完整编译的代价。",
        },
        "why:key-reuse/reused": {
            "en": "A key that was already consumed gives the same random numbers again: your 'new' noise, "
            "dropout mask or sample repeats. Split the key and use each subkey once.",
            "zh": "已经用过的 key 会再次给出同样的随机数：你以为的“新”噪声、dropout 掩码或样本其实是重复的。"
            "先 split，每个子 key 只用一次。",
        },
        "why:key-reuse/reused/vmap": {
            "en": "Split the key into one key per row (keys = jax.random.split(key, n)) and let vmap map over "
            "them (in_axes=0): each row then draws its own numbers.",
            "zh": "把 key split 成每行一个（keys = jax.random.split(key, n)），让 vmap 对它们做映射（in_axes=0）："
            "这样每一行抽到的都是自己的随机数。",
        },
        "why:key-reuse/loop-constant/returned": {
            "en": "Put the new key the split made back into the carry (key, sub = jax.random.split(key); return "
            "the carry with `key`), not the key the pass started with.",
            "zh": "把 split 得到的新 key 放回 carry（key, sub = jax.random.split(key)；返回带着 `key` 的 carry），"
            "而不是这一轮开始时的那个 key。",
        },
        "why:key-reuse/remade/fold_in": {
            "en": "fold_in gives a new key only for a new number: fold in something that changes every step (a "
            "step count that grows each step, not the epoch), or split the key each pass.",
            "zh": "fold_in 只有折进新的数才会给出新的 key：折进每一步都会变的数（每步递增的步数，而不是 epoch），"
            "或者每一轮 split 这个 key。",
        },
        "why:key-reuse/loop-constant": {
            "en": "Every pass draws the same random numbers. Carry the key in the loop's state, split it each "
            "pass and carry the new key on (key, sub = jax.random.split(key)), or split it into one key per pass "
            "beforehand and loop over those.",
            "zh": "每一轮抽到的随机数都一样。把 key 放进循环的状态里，每轮 split 并把新的 key 传下去"
            "（key, sub = jax.random.split(key)），或者事先 split 成每轮一个 key，再对它们循环。",
        },
        "why:key-reuse/remade": {
            "en": "A key made from the same seed is the same key, however often it is made: every step draws "
            "the same noise or dropout mask. Make the key once, before the loop, and split it each pass "
            "(key, sub = jax.random.split(key)), or fold the step in (jax.random.fold_in(key, step)).",
            "zh": "用同一个种子创建的 key，无论创建多少次都是同一个 key：每一步抽到的噪声或 dropout 掩码都一样。"
            "在循环之前只创建一次 key，每轮 split（key, sub = jax.random.split(key)），或者把步数折进去"
            "（jax.random.fold_in(key, step)）。",
        },
        "why:key-reuse/handed-back": {
            "en": "A key handed back after use gives the next step the same random numbers. Split it inside "
            "the step, use one half and return the other (key, sub = jax.random.split(key)).",
            "zh": "用过之后又交回去的 key 会让下一步得到同样的随机数。在这一步里先 split，用其中一半，把另一半返回"
            "（key, sub = jax.random.split(key)）。",
        },
        "why:key-reuse/handed-down": {
            "en": "Split before handing a key down (key, sub = jax.random.split(key)) and give the callee `sub`: "
            "the caller keeps a key no one has consumed.",
            "zh": "把 key 传下去之前先 split（key, sub = jax.random.split(key)），把 `sub` 交给被调用的函数："
            "调用者留下的是一个还没人用过的 key。",
        },
        "why:key-reuse/kept": {
            "en": "Hand the rest of the key back (return params, key) and let the caller go on with it, or split "
            "in the caller and hand down only a half.",
            "zh": "把剩下的 key 返回（return params, key），让调用者接着用它；或者在调用者那里先 split，只把一半传下去。",
        },
        "why:key-reuse/same-seed": {
            "en": "Give each stream its own seed (nnx.Rngs(params=0, dropout=1)), or make one key and split it "
            "into one key per stream.",
            "zh": "给每个流各自的种子（nnx.Rngs(params=0, dropout=1)），或者只创建一个 key，再 split 成每个流一个。",
        },
        "why:side-effect/global": {
            "en": "That assignment ran once, at trace time; later calls run the compiled program and skip it, "
            "so the global stops changing. Return the new value instead.",
            "zh": "这次赋值只在追踪时执行了一次；之后的调用运行的是编译好的程序，会跳过它，全局变量也就不再变化。"
            "改为把新值作为返回值交出去。",
        },
        "why:side-effect/mutation": {
            "en": "That change happened once, at trace time, and what it stored may be a tracer, not a value. "
            "Take the state in as an argument and return the new state.",
            "zh": "这次修改只在追踪时发生了一次，而且存进去的可能是追踪值，而不是数值。把状态作为参数传入，再把新状态返回。",
        },
        "why:side-effect/rebound": {
            "en": "That assignment ran once, at trace time; later calls run the compiled program and skip it, "
            "so the variable stops changing. Return the new value instead.",
            "zh": "这次赋值只在追踪时执行了一次；之后的调用运行的是编译好的程序，会跳过它，这个变量也就不再变化。"
            "改为把新值作为返回值交出去。",
        },
        "why:side-effect/iterator": {
            "en": "next() ran once, at trace time: the batch it took is baked into the compiled program as a "
            "constant, and every later call trains on that same batch. Take the batch outside and pass it in "
            "as an argument.",
            "zh": "next() 只在追踪时执行了一次：它取到的那批数据作为常量写进了编译好的程序，之后每次调用都在同一批数据上"
            "训练。在外面取数据，再作为参数传进去。",
        },
        "why:side-effect/captured": {
            "en": "A jitted function compiles the globals and closed-over values it reads into its program as "
            "constants, and JAX traces again only when its arguments change, never when such a value does. Pass the "
            "changing value in as an argument (an array, or a field of the state), or read it from the optimizer's "
            "state (optax.inject_hyperparams).",
            "zh": "jit 函数会把它读取的全局变量和闭包中的值作为常量编译进程序；JAX 只在参数变化时重新追踪，"
            "这些值变化时不会。把会变化的值作为参数传入（数组，或状态中的一个字段），或者从优化器状态中读取"
            "（optax.inject_hyperparams）。",
        },
        "why:side-effect/stale": {
            "en": "A jitted method reads `self` while it is traced, and the compiled program keeps what it read. "
            "JAX traces again only for a new cache key: `jax.jit(self.step)` never does, and a static `self` "
            "with the default hash (its identity) is the same key after a change. Pass the changing value in "
            "as an array argument, or give the object __hash__ and __eq__ over its fields (a frozen dataclass).",
            "zh": "jit 方法在被追踪时读取 `self`，编译好的程序会保留读到的值。JAX 只在缓存键变化时才重新追踪："
            "`jax.jit(self.step)` 从不会，而沿用默认哈希（按对象身份）的静态 `self` 改变之后仍是同一个键。"
            "把会变化的值作为数组参数传入，或者让对象按字段定义 __hash__ 和 __eq__（冻结的 dataclass）。",
        },
        "why:side-effect/print": {
            "en": "A Python print runs only while tracing: it shows tracers, once per trace, and stays silent on "
            "later calls. Use jax.debug.print to see values on every call.",
            "zh": "Python 的 print 只在追踪时执行：它打印的是追踪值，每次追踪只打印一次，之后的调用不再输出。"
            "想在每次调用时看到数值，用 jax.debug.print。",
        },
        "why:donation/unusable": {
            "en": "You donated these buffers but no output could reuse them (a different shape or dtype), so the "
            "memory is not saved. Donate the state that the step returns in the same form.",
            "zh": "这些缓冲区被捐赠了，但没有哪个输出能复用它们（形状或 dtype 不同），所以并没有省下内存。"
            "只捐赠那份会以同样形式返回的状态。",
        },
        "why:donation/aliased": {
            "en": "Donation hands each input buffer to the call's outputs, once; two leaves sharing one array "
            "would hand it over twice, so JAX refuses the call. Make the copies independent where the state "
            "is built (avg_params = jax.tree.map(jnp.copy, params)), or do not donate that argument.",
            "zh": "捐赠会把每个输入缓冲区交给这次调用的输出，而且只能交一次；两个叶子共用一个数组，就得交两次，"
            "所以 JAX 拒绝了这次调用。在构造状态的地方让副本彼此独立（avg_params = jax.tree.map(jnp.copy, params)），"
            "或者不捐赠这个参数。",
        },
        "why:donation/deleted": {
            "en": "An array was used after it was donated: its buffer now belongs to the call's output. Rebind "
            "the name to the returned state at once (state = step(state, ...)).",
            "zh": "一个数组在被捐赠之后又被使用了：它的缓冲区已经归这次调用的输出所有。调用后立即把名字重新绑定"
            "到返回的状态上（state = step(state, ...)）。",
        },
        "why:host-sync/per-step": {
            "en": "Every step pulls a value from the device to Python (`float()`, `.item()`, `np.asarray`, an `if` on "
            "an array such as `if loss < best:`, an array as a list index): the loop waits for the device each "
            "time instead of queueing work ahead. Keep values on the device (jnp.where for a best-so-far) and "
            "read them every N steps, or collect them with lax.scan.",
            "zh": "每一步都把一个值从设备拉回 Python（`float()`、`.item()`、`np.asarray`、对数组做 `if` 判断，如 "
            "`if loss < best:`、把数组当列表下标）：循环每次都要等设备算完，没法提前排队后续的计算。让数值留在设备上"
            "（记录最优值可用 jnp.where），每隔 N 步读一次，或用 lax.scan 收集起来。",
        },
        "why:key-reuse/constant": {
            "en": "Noted, not counted as a finding: if the numbers should differ from call to call, split a new "
            "key each time instead.",
            "zh": "仅作提示，不算作问题：如果每次调用的随机数应当不同，就每次 split 出一个新 key。",
        },
        "why:crash/immutable": {
            "en": "JAX arrays cannot change in place. Make the changed copy and rebind the name: "
            "x = x.at[i].set(value).",
            "zh": "JAX 数组不能原地修改。生成修改后的副本，再把名字重新绑定：x = x.at[i].set(value)。",
        },
        "why:crash/concretization": {
            "en": "Under jit a value is a tracer with a shape but no number yet. Make what decides shapes or "
            "lengths static (static_argnums), or compute it outside the jitted function.",
            "zh": "在 jit 下，值是只有形状、还没有具体数值的追踪值。把决定形状或长度的量设为静态参数"
            "（static_argnums），或在 jit 函数之外计算它。",
        },
        "why:crash/tracer-bool": {
            "en": "Under jit the value is not known yet, so Python cannot branch on it. Branch on the device: "
            "jnp.where or lax.cond.",
            "zh": "在 jit 下数值还不知道，Python 无法据此分支。改在设备上分支：jnp.where 或 lax.cond。",
        },
        "why:crash/leaked-tracer": {
            "en": "A tracer stored outside (a global, an attribute, a list) lives on after its trace ends. Return "
            "the value from the function instead of storing it.",
            "zh": "存到外部（全局变量、属性、列表）的追踪值在追踪结束后仍然留着。改为从函数返回这个值，而不是把它存起来。",
        },
        "why:crash/key-reuse-error": {
            "en": "A key consumed twice gives the same random numbers twice. Split the key and use each subkey once.",
            "zh": "同一个 key 用两次会给出两次同样的随机数。先 split，每个子 key 只用一次。",
        },
        "why:nan/first": {
            "en": "From here on the values are NaN or inf, and everything computed from them is too. Look at "
            "this operation's inputs (a log of 0, a division by 0, a step size that diverges).",
            "zh": "从这里开始数值变成了 NaN 或 inf，之后由它算出的一切也都是。检查这个运算的输入（对 0 取 "
            "log、除以 0、发散的步长）。",
        },
        # ---- the report
        "title": {"en": "doctor: {script}", "zh": "doctor：{script}"},
        "none": {
            "en": "No findings: nothing the chapter warns about was seen.",
            "zh": "没有发现问题：本章提醒的那些问题一个都没有出现。",
        },
        "none_unseen": {
            "en": "No findings, but no jitted function of yours ({script} and the modules beside it) was traced: "
            "retraces and side effects under jit had nothing of yours to watch.",
            "zh": "没有发现问题，但你的代码（{script} 及其旁边的模块）里没有任何 jit 函数被追踪：重新追踪和 jit "
            "下的副作用这两类检查没有可观察的代码。",
        },
        "none_stopped": {
            "en": "No findings in the part of the script that ran.",
            "zh": "在脚本已运行的部分中没有发现问题。",
        },
        "none_blinded": {
            "en": "No findings among what the doctor could see; it could not see everything.",
            "zh": "在 doctor 能看到的范围内没有发现问题；但它并没能看到全部。",
        },
        "blind:logging": {
            "en": "Retraces were not watched: the script turned JAX's cache-miss explanations off "
            "(jax_explain_cache_misses, or their logger), and JAX traced functions named like yours that "
            "no explanation came for. Retraces and side effects under jit may have gone unseen.",
            "zh": "没有能监视重新追踪：脚本关掉了 JAX 的缓存未命中说明（jax_explain_cache_misses 或它的日志器），"
            "而 JAX 追踪了与你的函数同名、却没有任何说明的函数。重新追踪和 jit 下的副作用可能没被看到。",
        },
        "blind:transfers": {
            "en": "JAX's transfer guard saw more copies from the device to the host than the doctor placed at "
            "lines of yours: some host syncs (inside a library, or in C code) are not among the findings.",
            "zh": "JAX 的传输守卫看到的设备到主机的拷贝，比 doctor 在你的代码行上定位到的更多：有些主机同步"
            "（在某个库里，或在 C 代码里）不在这些问题之中。",
        },
        "one": {"en": "1 finding:", "zh": "发现 1 个问题："},
        "some": {"en": "{n} findings:", "zh": "发现 {n} 个问题："},
        "times": {"en": "{n}×", "zh": "{n} 次"},
        "why": {"en": "Why it costs you: ", "zh": "代价："},
        "fix": {"en": "Fix shown in lesson {lesson}{title}{cell}.", "zh": "修法见第 {lesson} 课{title}{cell}。"},
        "cell": {"en": ", demo cell {cell}", "zh": "，演示单元 {cell}"},
        "open": {
            "en": "Open it: run `jaxstate-tutor`, press Ctrl+P and type {lesson}{cell_hint}.",
            "zh": "打开它：运行 `jaxstate-tutor`，按 Ctrl+P，输入 {lesson}{cell_hint}。",
        },
        "cell_hint": {"en": "; the cell is in that lesson", "zh": "；演示单元就在这一课里"},
        "traces": {"en": "Traces per jitted function: ", "zh": "各 jit 函数的追踪次数："},
        "compiling": {"en": "{seconds:.2f} s making it", "zh": "编译耗时 {seconds:.2f} 秒"},
        "notes": {"en": "Noted, not a finding:", "zh": "提示（不算问题）："},
        "ended_ok": {"en": "The script ended normally ({seconds:.1f} s).", "zh": "脚本正常结束（{seconds:.1f} 秒）。"},
        "ended_exit": {
            "en": "The script exited with code {code} ({seconds:.1f} s).",
            "zh": "脚本以退出码 {code} 结束（{seconds:.1f} 秒）。",
        },
        "ended_stopped": {
            "en": "The script was stopped after {seconds:.1f} s (Ctrl+C): this is what was seen until then.",
            "zh": "脚本在 {seconds:.1f} 秒后被停止（Ctrl+C）：以下是此前看到的情况。",
        },
        "ended_timeout": {
            "en": "The script was stopped at the time limit ({seconds:.1f} s): this is what was seen until "
            "then. A longer run: --timeout SECONDS.",
            "zh": "脚本运行到时间上限（{seconds:.1f} 秒）被停止：以下是此前看到的情况。需要更长时间：--timeout 秒数。",
        },
        "ended_error": {
            "en": "The script failed (exit code {code}, {seconds:.1f} s); its error is above.",
            "zh": "脚本运行失败（退出码 {code}，{seconds:.1f} 秒）；错误信息见上方。",
        },
    }
)


word = WORDS.say


def _times(count: int, lang: str) -> str:
    return word("once", lang) if count == 1 else word("n_times", lang, n=count)


def what(f: Finding, lang: str) -> str:
    """The finding's first sentence: what was seen, and how often; then what it cost, when that
    was measured and worth a word (time waiting for the device, time recompiling)."""
    seen = _seen(f, lang)
    gap = "" if lang == "zh" else " "
    if f.seconds >= 0.01 and f.kind in ("host-sync", "retrace"):
        seen += gap + word(f"cost/{f.kind}", lang, seconds=f.seconds)
    if f.kind == "key-reuse" and f.made_line is not None and f.made_line != f.line:
        seen += gap + word("made-at", lang, made=f.made_line)
    if f.kind in ("key-reuse", "nan") and f.noticed_line is not None and f.noticed_line != f.line:
        seen += gap + word(f"noticed-at/{f.kind}", lang, noticed=f.noticed_line)
    if f.inside:
        library = f.inside.split("/", 1)[0]
        seen += gap + word("inside", lang, library=library, place=f.inside, line=f.line)
    return seen


def _seen(f: Finding, lang: str) -> str:
    fields = {
        "fn": f.function or "",
        "count": f.count,
        "times": _times(f.count, lang),
        "name": f.name,
        "types": f.types,
        "via": ("、" if lang == "zh" else ", ").join(f.via),
        "primitive": f.primitive or "?",
        "first": f.first_line,
        "read": f.explanation,
    }
    key = f"{f.kind}/{f.code}"
    if f.kind == "retrace" and f.code == "new-function" and f.name:
        return word(key + _variant(f), lang, **fields)
    if f.kind == "retrace" and f.code not in ("new-function", "rewrapped"):
        if f.changed:  # the doctor's own comparison says what changed; JAX's words are the second witness
            said = word("retrace/seen", lang, explanation=_changes(f.changed, lang)) + word("change/against", lang)
            sentence = word("retrace", lang, seen=said, **fields)
            if f.explanation:
                sentence += word("change/witness", lang, explanation=f.explanation.rstrip("."))
            return sentence
        seen = word("retrace/seen", lang, explanation=f.explanation) if f.explanation else ""
        return word("retrace", lang, seen=seen, **fields)
    if f.kind == "key-reuse":
        key += _variant(f)
    if f.kind == "key-reuse" and f.code == "reused" and f.name != "vmap":
        key += "/same-line" if f.first_line == f.line else "/first-at" if f.first_line else ""
    if f.kind == "host-sync" and not f.function:
        key += "/no-jit"
    if f.kind == "donation" and f.code == "aliased":
        if len(f.paths) < 2:
            key += "/unnamed"
        else:
            fields["pair"] = word("aliased/pair", lang, a=f.paths[0], b=f.paths[1])
            more = len(f.paths) // 2 - 1
            fields["more"] = "" if more < 1 else word("aliased/more1" if more == 1 else "aliased/more", lang, n=more)
    return word(key, lang, **fields)


def _changes(flat: tuple[str, ...], lang: str) -> str:
    """The comparison's changes (quadruples: how, path, before, now), worded and joined."""
    said = []
    for i in range(0, len(flat) - 3, 4):
        how, path, before, now = flat[i : i + 4]
        key = f"change/{how}"
        if how == "new-object" and now:
            key += "/attributes" if "->" in now else "/leaves"
        elif how == "structure" and not before and not now:
            key += "/static"
        said.append(word(key, lang, path=path, before=before, now=now))
    return ("；" if lang == "zh" else "; ").join(said)


def _variant(f: Finding) -> str:
    """The words' variant a finding's data asks for ("" for the plain ones)."""
    if f.kind == "retrace" and f.code == "new-function" and f.name:
        return "/pmap" if f.name == "pmap" else "/lax"  # a pmap, or a loop body or branch handed to lax, not jax.jit
    if f.kind == "retrace" and f.code == "static" and f.changed[:1] == ("new-object",):
        return "/new-object"  # an object made anew (an optimizer, a config) kept static, not a flag's value
    if f.kind == "retrace" and f.code == "rewrapped" and f.traced != 1:
        return "/retraced" if f.traced > 1 else "/unknown"  # "so this traced once" only when it did
    if f.kind == "key-reuse" and f.code == "reused" and f.name == "vmap":
        return "/vmap"  # one key for several rows of a vmap
    if f.kind == "key-reuse" and f.code == "remade" and f.name == "fold_in":
        return "/fold_in"  # made again by folding one number into one key
    if f.kind == "key-reuse" and f.code == "loop-constant" and f.noticed_line is not None:
        return "/returned"  # split in the body, the old key handed back at its return
    return ""


def why(f: Finding, lang: str) -> str:
    """Why this problem costs the learner something, and what to do instead."""
    return word(f"why:{f.kind}/{f.code}{_variant(f)}", lang, traced=f.traced)


def message(f: Finding, lang: str) -> str:
    """What, then why (the JSON `message`, and the TUI's text of a finding)."""
    return what(f, lang) + ("" if lang == "zh" else " ") + why(f, lang)


def times(count: int, lang: str) -> str:
    """How often, short: "3×" / "3 次"."""
    return word("times", lang, n=count)


def how_many(report: Report, lang: str) -> str:
    """ "No findings: ...", "1 finding:" or "3 findings:"."""
    n = len(report.findings)
    if n == 0 and any(cause in report.blinded for cause in ("logging", "transfers")):
        return word("none_blinded", lang)
    if n == 0 and (report.status == "timeout" or "stopped" in report.blinded):
        return word("none_stopped", lang)  # nothing after the stop was seen: claim nothing of it
    if n == 0 and not report.traces and report.status == "ok":
        return word("none_unseen", lang, script=report.script)  # "No findings" alone would overclaim
    return word("none" if n == 0 else "one" if n == 1 else "some", lang, n=n)


def blind_spots(report: Report, lang: str) -> list[str]:
    """A sentence for each detector the script blinded (the stop is said by `ending`)."""
    return [word(f"blind:{cause}", lang) for cause in report.blinded if cause != "stopped"]


def trace_count(t, lang: str) -> str:
    """One jitted function's traces and what making it cost: `step (model.py:8) ×6, 1.20 s making it`."""
    where = f"{t.function} ({t.file}:{t.line})" if t.file else f"{t.function}:{t.line}"
    cost = (", " if lang != "zh" else "，") + word("compiling", lang, seconds=t.seconds) if t.seconds >= 0.005 else ""
    return f"{where} ×{t.count}{cost}"


def ending(report: Report, lang: str, stopped: bool = False) -> str:
    """One sentence on how the script ended."""
    seconds = report.duration_s
    if report.status == "timeout":
        return word("ended_timeout", lang, seconds=seconds)
    if stopped or report.exit_code == 130:
        return word("ended_stopped", lang, seconds=seconds)
    if report.status == "error":
        return word("ended_error", lang, code=report.exit_code, seconds=seconds)
    if report.exit_code not in (0, None):
        return word("ended_exit", lang, code=report.exit_code, seconds=seconds)
    return word("ended_ok", lang, seconds=seconds)
