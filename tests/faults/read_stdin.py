"""Fault: waiting for keyboard input that will never come."""


def update_counter(count, increment):
    answer = input("how much? ")
    return count + int(answer), increment
