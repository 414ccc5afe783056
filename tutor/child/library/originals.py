"""The JAX and NumPy functions the library calls, taken before any learner code runs: a learner's
file may monkey-patch jax (`jax.jit = ...`) or NumPy, and what judges it must not go through the patch."""

from __future__ import annotations

import jax
import jax._src.array
import numpy

jit = jax.jit
eval_shape = jax.eval_shape
make_jaxpr = jax.make_jaxpr
device_put = jax.device_put
default_backend = jax.default_backend
default_device = jax.default_device
devices = jax.devices
canonicalize_dtype = jax.dtypes.canonicalize_dtype
tree_flatten_with_path = jax.tree_util.tree_flatten_with_path
tree_structure = jax.tree_util.tree_structure
keystr = jax.tree_util.keystr
Wrapped = jax.stages.Wrapped
Tracer = jax.core.Tracer
listen = jax.monitoring.register_event_duration_secs_listener
unlisten = jax.monitoring.unregister_event_duration_listener

# The array type of a concrete JAX value, and the NumPy calls `close` compares with: ufuncs and
# C functions, which no learner code can rebind once taken (a module's name can be; see values.close).
ArrayImpl = jax._src.array.ArrayImpl
np_asarray = numpy.asarray
np_array = numpy.array
isfinite = numpy.isfinite
isnan = numpy.isnan
absolute = numpy.absolute
subtract = numpy.subtract
multiply = numpy.multiply
add = numpy.add
less_equal = numpy.less_equal
equal = numpy.equal
logical_or = numpy.logical_or
logical_and = numpy.logical_and
every = numpy.logical_and.reduce
errstate = numpy.errstate
NUMPY_SCALARS = frozenset(t for t in numpy.sctypeDict.values() if isinstance(t, type))
