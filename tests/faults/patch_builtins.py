"""Fault: builtins replaced (print silenced, isinstance always true), then a wrong answer."""
import builtins

builtins.print = lambda *args, **kwargs: None
builtins.isinstance = lambda obj, cls: True


def update_counter(count, increment):
    return count + 1  # wrong: returns only the state, not a pair
