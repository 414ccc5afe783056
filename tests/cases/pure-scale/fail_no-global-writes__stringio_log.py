"""Logs every call into an io.StringIO buffer."""
# says: LOG

import io

LOG = io.StringIO()


def scaled(x, scale):
    LOG.write(f"scale={scale}\n")
    return x * scale
