def update_counter(count, increment):
    update_counter.last = count  # a "memory" on the function object
    return count + 1, increment
