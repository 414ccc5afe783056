# Every write sets the process's decimal precision to the same value: a setting every user of the
# decimal module shares. After the first call nothing a before/after comparison sees changes, but
# for the judge's calls starting from a context of its own.
# says: decimal context
# never-says: module's globals
import decimal


def update(state, index, value):
    decimal.getcontext().prec = 12
    return {"buffer": state["buffer"].at[index].set(value), "writes": state["writes"] + 1}
