_calls = 0


def update_counter(count, increment):
    global _calls
    _calls += 1
    return _calls, increment
