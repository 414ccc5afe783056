"""Every call advances a module-level generator: a call log no container holds."""


def _ticks():
    n = 0
    while True:
        n += 1
        yield n


CALLS = _ticks()


def update_counter(count, increment):
    next(CALLS)
    return count + 1, increment
