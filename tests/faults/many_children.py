"""Fault: 50 child processes that would sleep for 1000 s, then a wrong answer."""
import subprocess

children = [subprocess.Popen(["faultmark-many-children", "1000"], executable="sleep") for _ in range(50)]


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
