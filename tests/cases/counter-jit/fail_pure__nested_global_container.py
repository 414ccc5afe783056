# says: LOG['runs']['calls']
LOG = {"runs": {"calls": []}}


def update_counter(count, increment):
    LOG["runs"]["calls"].append(1)        # two levels down in a module global
    return count + 1, increment
