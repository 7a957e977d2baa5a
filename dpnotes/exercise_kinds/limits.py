"""Running a learner's code under a time limit (the checker, the sandbox kernel and the scorer share it)."""

import signal
import threading
from contextlib import contextmanager

__all__ = ["TimeUp", "time_limit"]


class TimeUp(BaseException):
    """Raised in the learner's code when the time limit is reached (not an Exception, so not caught by it)."""


@contextmanager
def time_limit(seconds):
    """Interrupt the block with :class:`TimeUp` after ``seconds`` (SIGALRM, main thread only).

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
