# A closure keeps every (index, value) written, "to replay them later".
def _make():
    log = []

    def update(state, index, value):
        log.append((index, value))
        return {"buffer": state["buffer"].at[index].set(value), "writes": state["writes"] + 1}

    return update


update = _make()
