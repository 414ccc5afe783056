"""Fault: learner code cancels the worker's own deadline (alarm, interval timer, SIGALRM handler),
then loops forever."""
import signal

signal.alarm(0)
signal.setitimer(signal.ITIMER_REAL, 0)
signal.signal(signal.SIGALRM, signal.SIG_IGN)


def update_counter(count, increment):
    signal.alarm(0)  # the job's timer is armed after the file loads: cancel it again
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    while True:
        pass
