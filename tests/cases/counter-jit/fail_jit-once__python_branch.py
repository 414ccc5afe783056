def update_counter(count, increment):
    if count >= 0:
        return count + 1, increment
    return count, increment
