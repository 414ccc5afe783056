# says: seen (closed over by update_counter)
def _make_counter():
    seen = []

    def update_counter(count, increment):
        seen.append(increment)            # the list lives in a closure cell
        return count + 1, increment

    return update_counter


update_counter = _make_counter()
