class Counter:
    """Counts its own calls: hidden state on the object."""

    def __init__(self):
        self.calls = 0

    def __call__(self, count, increment):
        self.calls += 1
        return count + 1, increment


update_counter = Counter()
