"""Keeps every increment seen in an array.array: history outside any container."""

# says: SEEN
import array

SEEN = array.array("q")


def update_counter(count, increment):
    SEEN.append(len(SEEN))
    return count + 1, increment
