"""count - (-1): the same integer arithmetic written backwards, keyword-only helper."""


def _next(*, of):
    return of - (-1)


def update_counter(count, increment):
    return _next(of=count), increment
