"""Running a learner's code under a time limit (the checker, the sandbox kernel and the scorer share it).

The limit counts the CPU time of this process, not the wall clock: a correct answer is never stopped
because the machine is busy, and a loop that does not end is stopped after the same amount of computing
on any machine load. A block that waits instead of computing (a ``sleep``, a blocked read) uses no CPU
time; a wall-clock backstop of ``WALL_FACTOR`` times the limit stops it.
"""

import signal
import threading
from contextlib import contextmanager

__all__ = ["TimeUp", "WALL_FACTOR", "time_limit"]

#: the wall-clock backstop, as a multiple of the CPU-time limit
WALL_FACTOR = 10.0


class TimeUp(BaseException):
    """Raised in the learner's code when the time limit is reached (not an Exception, so not caught by it)."""


def _timers_free():
    return all(signal.getitimer(timer)[0] == 0 for timer in (signal.ITIMER_REAL, signal.ITIMER_PROF))


@contextmanager
def time_limit(seconds):
    """Interrupt the block with :class:`TimeUp` after ``seconds`` of CPU time of this process (user and
    system, all threads: ``ITIMER_PROF``), or after ``WALL_FACTOR * seconds`` of wall-clock time.

    Main thread only (signals are delivered there); does nothing off the main thread or when a timer
    someone else set is running (it is left alone). The previous handlers are restored on exit.
    """
    usable = (hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
              and _timers_free())
    if not usable:
        yield
        return

    def _raise(signum, frame):
        raise TimeUp

    previous = {sig: signal.signal(sig, _raise) for sig in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, WALL_FACTOR * seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
