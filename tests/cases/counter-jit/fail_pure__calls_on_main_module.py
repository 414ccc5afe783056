# says: __main__.
# Wrong: the number of calls is kept as an attribute of the __main__ module.
import sys


def update_counter(count, increment):
    main = sys.modules["__main__"]
    main.counter_calls = getattr(main, "counter_calls", 0) + 1
    return count + 1, increment
