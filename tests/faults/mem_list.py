"""Fault: memory that grows without end, one chunk at a time."""
hoard = []


def update_counter(count, increment):
    while True:
        hoard.append(bytearray(50 * 2**20))  # zero-filled, so the pages are really touched
