"""Self-checking exercises: verdicts, and every exercise in a chapter exists."""

import json
import re
from pathlib import Path

import numpy as np
import pytest

from dpnotes.exercises import EXERCISES, check

BOOK = Path(__file__).resolve().parents[1] / "book"


def test_verdicts():
    assert check("renyi-gaussian-order", 3 / 8).status == "right"
    assert check("renyi-gaussian-order", 0.38).status == "close"
    assert check("renyi-gaussian-order", 1.0).status == "wrong"
    assert check("renyi-gaussian-order", None).status == "wrong"
    assert check("renyi-gaussian-order", "abc").status == "wrong"
    assert check("renyi-gaussian-order", float("nan")).status == "wrong"


def test_messages_do_not_reveal_the_answer():
    for key in EXERCISES:
        expected = EXERCISES[key].answer()
        for guess in (None, expected * 1.02, expected * 3):
            message = repr(check(key, guess))
            assert f"{expected:.3g}" not in message and f"{expected:.4f}" not in message


def test_answers_by_hand():
    # answers worked out by hand in the chapter's solutions, independently of the package
    assert EXERCISES["renyi-gaussian-order"].answer() == pytest.approx(0.375)
    assert EXERCISES["renyi-gaussian-sigma"].answer() == pytest.approx(2.2360679775)
    assert EXERCISES["renyi-laplace-order2"].answer() == pytest.approx(np.log(2 / 3 * np.e + np.exp(-2) / 3))
    assert EXERCISES["renyi-rr-limit"].answer() == pytest.approx(np.log(9))


def test_unknown_exercise():
    with pytest.raises(ValueError, match="unknown exercise"):
        check("no-such-exercise", 1.0)


def test_every_checked_exercise_exists():
    for nb in BOOK.glob("*.ipynb"):
        for cell in json.loads(nb.read_text())["cells"]:
            for key in re.findall(r'check\("([^"]+)"', "".join(cell["source"])):
                assert key in EXERCISES, f"{nb.name}: {key}"


def test_student_copy_has_no_solutions(tmp_path):
    import subprocess
    import sys

    subprocess.run([sys.executable, str(BOOK.parent / "tools" / "student.py"), str(tmp_path)], check=True)
    for nb in (tmp_path / "book").glob("*.ipynb"):
        text = nb.read_text()
        assert "solution-start" not in text and "solution-end" not in text
        assert "exercise" in text  # the exercises themselves stay
        assert 'check(\\"renyi-gaussian-order\\", 3 / 8)' not in text
