"""Fault: 100 MB of output."""
line = "x" * 99
for _ in range(10**6):
    print(line)


def update_counter(count, increment):
    return count + 1, increment
