"""Fault: a BaseException subclass (not an Exception) raised at import."""


class Stop(BaseException):
    pass


def update_counter(count, increment):
    return count + 1, increment


raise Stop("not an ordinary exception")
