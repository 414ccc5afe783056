history = []
def update_counter(count, increment):
    history.append(increment)
    return count + 1, increment
