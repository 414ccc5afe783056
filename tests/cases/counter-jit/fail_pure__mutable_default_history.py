# says: update_counter's default _history
def update_counter(count, increment, _history=[]):
    _history.append(int(count))          # a history kept in a default argument
    return count + 1, increment
