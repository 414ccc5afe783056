"""What JAX emits that the checks and the doctor both listen for, spelled once: the monitoring
event of a trace, and the warning about donated buffers it could not reuse. Verified on JAX
0.10.2 and 0.12; the check library reports an error, never a pass, if the event goes away."""

from __future__ import annotations

import re

TRACE_EVENT = "/jax/core/compile/jaxpr_trace_duration"
DONATION_UNUSABLE = re.compile(r"donated buffers were not usable:\s*(.*?)\.?\s*(?:\n|$)", re.S)
