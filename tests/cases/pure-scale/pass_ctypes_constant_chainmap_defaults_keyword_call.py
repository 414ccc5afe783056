"""Defaults looked up in a ChainMap and a ctypes constant read (never written): pure. The scale
comes first as a keyword-only call inside."""

import ctypes
from collections import ChainMap

ONE = ctypes.c_double(1.0)
DEFAULTS = ChainMap({"unit": 1.0}, {"unit": 2.0})


def _mul(*, by, value):
    return value * by


def scaled(x, scale):
    return _mul(by=scale, value=x) * (ONE.value * DEFAULTS["unit"])
