"""The student copy's exercise data: written from a registry, read back by the student checker.

``export(registry)`` turns every spec into a record holding only what is needed to verify an
answer (salted hashes of tokens for numbers and formulas, inputs and the package function's
name for code, nothing for written answers); :class:`StudentRegistry` reads the records and
checks answers with the same rules as the instructor's checkers (the kinds' ``*_verdict``
functions), so both give the same verdicts.
"""

import json
import secrets
from collections.abc import Mapping

from .code import StudentCode
from .numeric import StudentNumeric
from .symbolic import StudentSymbolic
from .written import StudentWritten

__all__ = ["export", "StudentRegistry", "FORMAT"]

FORMAT = 2
_CHECKERS = {"numeric": StudentNumeric, "explore": StudentNumeric, "symbolic": StudentSymbolic,
             "code": StudentCode, "written": StudentWritten}


def export(registry, salt=lambda: secrets.token_hex(16)):
    """The records of every exercise of ``registry`` (a dict ready for JSON), one fresh salt each."""
    return {"format": FORMAT,
            "exercises": {key: spec.student_record(salt()) for key, spec in registry.items()}}


class StudentRegistry(Mapping):
    """Checkers built from exported records, by key, with :meth:`check`."""

    def __init__(self, data):
        if data.get("format") != FORMAT:
            raise ValueError(f"exercise data of format {data.get('format')!r}; this checker reads format {FORMAT}")
        self._checkers = {key: _CHECKERS[rec["kind"]](key, rec) for key, rec in data["exercises"].items()}

    @classmethod
    def from_file(cls, path):
        with open(path, encoding="utf-8") as fh:
            return cls(json.load(fh))

    def __getitem__(self, key):
        return self._checkers[key]

    def __iter__(self):
        return iter(self._checkers)

    def __len__(self):
        return len(self._checkers)

    def check(self, key, value):
        """Check a learner's answer to exercise ``key``; returns a Verdict."""
        if key not in self._checkers:
            raise ValueError(f"unknown exercise {key!r}; known: {sorted(self._checkers)}")
        return self._checkers[key].check(value)
