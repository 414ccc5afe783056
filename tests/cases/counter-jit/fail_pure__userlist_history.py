"""History kept in a collections.UserList (its list lives in .data)."""

# says: HISTORY
from collections import UserList

HISTORY = UserList()


def update_counter(count, increment):
    HISTORY.append(increment)
    return count + 1, increment
