"""Counts calls in an attribute set on an imported (stdlib) class."""
# says: fractions.Fraction.tutor_calls
import fractions


fractions.Fraction.tutor_calls = 0


def update_counter(count, increment):
    fractions.Fraction.tutor_calls += 1
    return count + 1, increment
