# says: sys.modules['batch_stats']
# Wrong: the batch sizes seen are recorded in a module made at import and registered in sys.modules.
import sys
import types

import jax

sys.modules.setdefault("batch_stats", types.ModuleType("batch_stats"))
sys.modules["batch_stats"].sizes = []


def predict(params, x):
    return params["w"] * x + params["b"], params


_batched = jax.vmap(predict, in_axes=(None, 0), out_axes=(0, None))


def batched_predict(params, xs):
    sys.modules["batch_stats"].sizes.append(len(xs))
    return _batched(params, xs)
