"""Fault: bytes that are not UTF-8 on stdout and stderr, then a wrong answer."""
import os

os.write(1, b"\xff\xfe\xfd invalid \xc3\x28 \xa0\xa1 \xf0\x28\x8c\x28 \x00\x01\x02\n" * 100)
os.write(2, b"\xed\xa0\x80 lone surrogate \xc0\xaf\n")
os.write(1, b"\xe4\xb8")  # a UTF-8 sequence cut in half, at the very end


def update_counter(count, increment):
    return count + increment, increment  # wrong: adds the increment
