# says: swapped
def update_counter(count, increment):
    return increment, count + 1
