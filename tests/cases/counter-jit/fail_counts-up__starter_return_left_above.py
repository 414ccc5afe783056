# says: never runs
# says: Line 6 never runs: `return` on line 5 ends `update_counter`
def update_counter(count, increment):
    # TODO: return the new count and the increment
    return count, increment
    new_count = count + 1
    return new_count, increment
