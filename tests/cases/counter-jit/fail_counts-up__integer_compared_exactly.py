# says: expected 1, got 0
# never-says: tolerance
def update_counter(count, increment):
    return count + increment, increment
