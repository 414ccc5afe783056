def update_counter(count, increment):
    try:
        return count + 1, increment
    finally:
        pass
