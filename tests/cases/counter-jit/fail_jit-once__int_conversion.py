def update_counter(count, increment):
    return int(count) + 1, increment
