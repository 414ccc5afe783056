def update_counter(count, increment):
    return count + increment, increment
