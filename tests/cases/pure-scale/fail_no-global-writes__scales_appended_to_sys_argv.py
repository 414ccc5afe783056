# Every scale appended to sys.argv: a list the whole process shares, mutated in place (the module
# sys itself keeps its names, so the witness saw nothing).
# says: sys.argv
import sys


def scaled(x, scale):
    sys.argv += [f"--scale={scale}"]
    return x * scale
