def update_counter(count, increment):
    new_count = count + 1
    return (new_count, increment)
