def update_counter(count, increment, step=1):
    return count + step, increment
