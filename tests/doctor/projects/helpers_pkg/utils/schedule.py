"""A learning-rate schedule evaluated on the host each step (a Python float): a linear warm-up,
then a step decay at the boundaries."""


def warmup_step_decay(step, base_lr, warmup=10, boundaries=(40, 80), factor=0.3):
    if step < warmup:
        return base_lr * (step + 1) / warmup
    lr = base_lr
    for boundary in boundaries:
        if step >= boundary:
            lr *= factor
    return lr
