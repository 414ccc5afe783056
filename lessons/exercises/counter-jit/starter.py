def update_counter(count, increment):
    """(new_count, increment): count + 1, and increment unchanged."""
    # TODO: compute the new count instead of returning the old one.
    return count, increment
