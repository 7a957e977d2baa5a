"""Running a learner's code under a time limit (the checker, the sandbox kernel and the scorer share it).

The limit is wall-clock time, on purpose: in a grading run nbgrader interrupts a cell after its own
per-cell timeout, also wall-clock, and the checker's limit must act first on any machine load, so that a
loop that does not end costs its item only, with the checker's message. A limit on CPU time would reach
nbgrader's timeout first on a busy machine. The checker's limit (seconds) is far above what a right answer
takes (a fraction of a second).
"""

import signal
import threading
from contextlib import contextmanager

__all__ = ["TimeUp", "time_limit"]


class TimeUp(BaseException):
    """Raised in the learner's code when the time limit is reached (not an Exception, so not caught by it)."""


@contextmanager
def time_limit(seconds):
    """Interrupt the block with :class:`TimeUp` after ``seconds`` of wall-clock time (SIGALRM, main thread only).

    Does nothing off the main thread, where no signal can be delivered, or when a timer someone else set is
    running (it is left alone); the previous handler is restored on exit.
    """
    usable = (hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
              and signal.getitimer(signal.ITIMER_REAL)[0] == 0)
    if not usable:
        yield
        return

    def _raise(signum, frame):
        raise TimeUp

    previous = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
