def update_counter(count, increment):
    if count >= 0:  # a Python branch on the count: fine eagerly, a tracer under jit
        return count + 1, increment
    return count - (-1), increment
