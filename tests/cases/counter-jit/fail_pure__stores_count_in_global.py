COUNT = 0


def update_counter(count, increment):
    global COUNT
    COUNT = count + 1  # remembers the count in a global as well
    return COUNT, increment
