"""Console logging: a line every few steps, reading the averaged metrics only then."""
import time

_START = time.perf_counter()


def format_metrics(values):
    return ", ".join(f"{name} {float(value):.4f}" for name, value in sorted(values.items()))


def log_every(step, average, every, lr):
    if step % every == 0 and average.count:
        elapsed = time.perf_counter() - _START
        print(f"[{elapsed:5.1f}s] step {step:4d} lr {lr:.4f}: {format_metrics(average.compute())}")
        average.reset()
