"""The learner's time limit: it stops a loop and a wait, restores what it changed, leaves others' timers alone."""

import signal
import threading
import time

import pytest

from dpnotes.exercise_kinds.limits import TimeUp, time_limit


def test_a_loop_is_stopped():
    with pytest.raises(TimeUp):
        with time_limit(0.1):
            while True:
                pass


def test_waiting_code_is_stopped():
    with pytest.raises(TimeUp):
        with time_limit(0.05):
            time.sleep(60)


def test_the_timer_and_the_handler_are_restored():
    handler = signal.getsignal(signal.SIGALRM)
    with time_limit(5):
        sum(range(1000))
    with pytest.raises(TimeUp):
        with time_limit(0.05):
            while True:
                pass
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0 and signal.getsignal(signal.SIGALRM) == handler


def test_a_timer_set_by_someone_else_is_left_alone():
    signal.setitimer(signal.ITIMER_REAL, 100.0)
    try:
        with time_limit(0.01):
            time.sleep(0.05)  # beyond the limit: not interrupted
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def test_off_the_main_thread_it_does_nothing():
    seen = []

    def work():
        with time_limit(0.01):
            time.sleep(0.05)
        seen.append("finished")

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert seen == ["finished"]
