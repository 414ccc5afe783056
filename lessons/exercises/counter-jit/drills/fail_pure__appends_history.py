# drill: 3 trace-time-python
history = []
def update_counter(count, increment):
    history.append(increment)
    return count + 1, increment
