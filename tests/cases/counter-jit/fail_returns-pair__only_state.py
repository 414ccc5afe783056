def update_counter(count, increment):
    return count + 1
