# Each write counted in the process's decimal context (its precision goes up by one per call): a
# setting every user of the decimal module shares, though no global of this module moves.
# says: decimal context
# never-says: module's globals
import decimal


def update(state, index, value):
    decimal.getcontext().prec += 1
    return {"buffer": state["buffer"].at[index].set(value), "writes": state["writes"] + 1}
