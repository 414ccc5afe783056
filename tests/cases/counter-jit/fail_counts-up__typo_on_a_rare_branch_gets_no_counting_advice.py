# says: NameError: name 'cuont' is not defined
# never-says: whatever `increment` is
def update_counter(count, increment):
    new_count = count + 1
    if increment < 0:
        new_count = cuont + 1  # a typo on a branch only negative increments reach
    return new_count, increment
