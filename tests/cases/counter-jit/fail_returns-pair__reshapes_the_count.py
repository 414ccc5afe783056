# says: called with int32[], int32[]
# says: (checking: returns (new_count, increment))
def update_counter(count, increment):
    return count.reshape(2) + 1, increment  # a scalar count has no room for 2 values
