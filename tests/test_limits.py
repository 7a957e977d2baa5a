"""The learner's time limit counts CPU time, with a wall-clock backstop for code that waits."""

import resource
import signal
import threading
import time

import pytest

from dpnotes.exercise_kinds import limits
from dpnotes.exercise_kinds.limits import TimeUp, time_limit


def _cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def test_a_loop_is_stopped_after_its_cpu_time(monkeypatch):
    monkeypatch.setattr(limits, "WALL_FACTOR", 1e4)  # only the CPU-time limit can act, however busy the machine
    before = _cpu_seconds()
    with pytest.raises(TimeUp):
        with time_limit(0.2):
            while True:
                pass
    assert _cpu_seconds() - before >= 0.1  # it was computing, not waiting (the kernel samples both clocks by ticks)


def test_waiting_code_is_stopped_by_the_wall_clock_backstop(monkeypatch):
    monkeypatch.setattr(limits, "WALL_FACTOR", 2.0)
    with pytest.raises(TimeUp):
        with time_limit(0.05):
            time.sleep(60)  # no CPU time: only the backstop (0.1 s) can stop it


def test_timers_and_handlers_are_restored():
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGPROF, signal.SIGALRM)}
    with time_limit(5):
        sum(range(1000))
    with pytest.raises(TimeUp):
        with time_limit(0.05):
            while True:
                pass
    assert all(signal.getitimer(t)[0] == 0 for t in (signal.ITIMER_REAL, signal.ITIMER_PROF))
    assert {sig: signal.getsignal(sig) for sig in handlers} == handlers


@pytest.mark.parametrize("timer", [signal.ITIMER_REAL, signal.ITIMER_PROF])
def test_a_timer_set_by_someone_else_is_left_alone(timer):
    signal.setitimer(timer, 100.0)
    try:
        with time_limit(0.01):
            deadline = time.process_time() + 0.05
            while time.process_time() < deadline:  # beyond the limit: not interrupted
                pass
        assert signal.getitimer(timer)[0] > 0
    finally:
        signal.setitimer(timer, 0)


def test_off_the_main_thread_it_does_nothing():
    seen = []

    def work():
        with time_limit(0.01):
            deadline = time.process_time() + 0.05
            while time.process_time() < deadline:
                pass
        seen.append("finished")

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert seen == ["finished"]
