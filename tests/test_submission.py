"""dpnotes.exercise_kinds.submission: answers emitted as data by the kernel, read back by the grader.

The grader reads what a learner's kernel emitted, so :func:`read_payload` must accept only plain
data (numbers, strings, numeric arrays, tuples, lists) and turn everything else into "nothing
to grade"; the round trip must give the package's checker the same verdict as the value itself.
"""

import json

import numpy as np
import pytest
import sympy as sp

from dpnotes.chapter_exercises import REGISTRY
from dpnotes.exercise_kinds.submission import Replay, answer_payload, read_payload


def roundtrip(key, value):
    doc = json.dumps(answer_payload(key, value, REGISTRY[key] if key in REGISTRY else None))
    return read_payload(doc, key)


@pytest.mark.parametrize("value", [None, 3.9669221888498387, "3.967", 7, np.float32(2.5), np.array([1.5]),
                                   np.array([[1.0, 2.0]]), (1.0, 2.0), [1, 2.5], float("inf"), True, "a string"])
def test_values_survive_the_round_trip(value):
    got, problem = roundtrip("composition-advanced-eps", value)
    assert problem is None
    if isinstance(value, np.ndarray):
        assert isinstance(got, np.ndarray) and got.shape == value.shape and np.array_equal(got, value)
    elif isinstance(value, (float, np.floating)) and not np.isfinite(value):
        assert got == float(value)
    else:
        assert got == (float(value) if isinstance(value, np.floating) else value)


def test_the_checker_gives_the_same_verdict_after_the_round_trip():
    for key, spec in REGISTRY.items():
        if spec.kind in ("numeric", "explore") and spec.chapter in ("01-renyi-gaussian", "02-composition"):
            ref = spec.reference()
            for value in (ref, ref * 1.01, -ref, str(ref), None):
                got, problem = roundtrip(key, value)
                assert problem is None
                assert spec.check(got).status == spec.check(value).status, (key, value)
    key = "composition-rdp-curve"
    if key in REGISTRY:
        T, alpha, sigma = sp.symbols("T alpha sigma", positive=True)
        got, _ = roundtrip(key, T * alpha / (2 * sigma ** 2))
        assert isinstance(got, str) and REGISTRY[key].check(got).status == "right"


def test_a_function_is_sent_as_its_outputs_and_replayed():
    code = [k for k, s in REGISTRY.items() if s.kind == "code"]
    assert code
    spec = REGISTRY[code[0]]
    ref = spec.reference_function()

    def learner(**kw):
        return ref(**{spec.argmap.get(k, k): v for k, v in kw.items()})

    got, problem = roundtrip(spec.key, learner)
    assert problem is None and isinstance(got, Replay)
    assert spec.check(got).status == "right"
    got, _ = roundtrip(spec.key, lambda **kw: 1 / 0)
    verdict = spec.check(got)
    assert verdict.status == "wrong" and "ZeroDivisionError" in verdict.message


def test_a_function_that_does_not_return_is_stopped(monkeypatch):
    spec = next(s for s in REGISTRY.values() if s.kind == "code")

    class Short:  # the kernel's checker of the exercise, with a short time limit
        kind, function, time_limit = "code", spec.function, 0.2

        @staticmethod
        def cases():
            return spec.cases()

    def forever(**kw):
        while True:
            pass

    doc = answer_payload(spec.key, forever, Short())
    assert doc["complete"] is False
    got, problem = read_payload(json.dumps(doc), spec.key)
    assert got is None and "time limit" in problem


@pytest.mark.parametrize("doc", [
    "not json", "[]", json.dumps({"key": "other", "kind": "value", "value": 1.0}),
    json.dumps({"key": "k", "kind": "value", "value": {"__array__": ["a"], "shape": [1]}}),
    json.dumps({"key": "k", "kind": "value", "value": {"__array__": [1.0, 2.0], "shape": [3]}}),
    json.dumps({"key": "k", "kind": "value", "value": {"__array__": [], "shape": [0, 10 ** 6, 10 ** 6]}}),
    json.dumps({"key": "k", "kind": "value", "value": {"__class__": "os.system"}}),
    json.dumps({"key": "k", "kind": "outputs", "outputs": [{"value": 1, "extra": 2}], "complete": True}),
    json.dumps({"key": "k", "kind": "outputs", "outputs": "x", "complete": True}),
    json.dumps({"key": "k", "kind": "score", "score": 3}),
    "[" * 5000 + "]" * 5000,
    json.dumps({"key": "k", "kind": "value", "value": [[[[[[[[[[[1]]]]]]]]]]]}),
])
def test_anything_but_plain_data_is_nothing_to_grade(doc):
    got, problem = read_payload(doc, "k")
    assert got is None and problem
