"""What JAX's runtimes print on every start, whatever the program does: never the cause of anything,
and kept out of the stderr the learner is shown (the verdict keeps all of it: `check --json`).

Known noise only: a warning that learner code caused (a JAX UserWarning about a dtype, say) is the
learner's to see, and so is every fatal line (glog's `F...`) and every traceback.
"""

from __future__ import annotations

import re

# Python warnings the runtime gives at every start; warnings.warn adds the source line below them,
# indented (`  warnings.warn(`), which goes with them.
_NOISY_WARNING = re.compile(
    r"^\S*\.py:\d+: \w*Warning: (?:"
    r"Transparent hugepages are not enabled"  # jax/_src/cloud_tpu_init.py, on every TPU start
    r"|An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed"
    r")"
)
_NOISY_LINE = re.compile(
    r"^(?:"
    r"WARNING: All log messages before absl::InitializeLog\(\) is called are written to STDERR"
    # glog/absl info and warning lines of XLA and libtpu: I1205 21:19:08.694348   4679 file.cc:234] ...
    r"|[IW]\d{4} \d\d:\d\d:\d+\.\d+\s+\d+ [\w./+-]+:\d+\] .*"
    # errors logged before absl is set up (the date reads 0000 00:00): the runtimes' start-up chatter
    r"|E0000 00:00:\d+\.\d+\s+\d+ [\w./+-]+:\d+\] .*"
    r")$"
)


def is_noise(line: str) -> bool:
    """A whole line (no newline) that a runtime prints on every start (a noisy warning's own line
    only; its indented source line is noise only after it, see without_noise)."""
    line = line.rstrip("\r\n")
    return bool(_NOISY_LINE.match(line) or _NOISY_WARNING.match(line))


def without_noise(text: str) -> str:
    """`text` without the start-up noise of JAX's runtimes: what the learner is shown as stderr."""
    kept: list[str] = []
    in_warning = False  # the indented lines below a noisy warning are its source line
    for line in text.splitlines(keepends=True):
        if in_warning and line[:1] in (" ", "\t"):
            continue
        in_warning = bool(_NOISY_WARNING.match(line))
        if in_warning or _NOISY_LINE.match(line.rstrip("\r\n")):
            continue
        kept.append(line)
    return "".join(kept)
