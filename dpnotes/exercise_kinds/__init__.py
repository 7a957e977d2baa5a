"""The kinds of exercise and their checkers (the base layer: it imports no chapter).

Five kinds, each a declarative spec with a difficulty of one to three stars and the
common slips its checker names without giving the answer:

- :class:`Numeric`: one number, computed by the package when checked;
- :class:`Symbolic`: a formula, checked by a numeric fingerprint (and ``sympy.simplify``);
- :class:`Code`: a function, property-tested against the package's own function;
- :class:`Explore`: a number read off a figure at given slider positions;
- :class:`Written`: prove or explain; model solution and rubric, graded by hand.

The chapters' specs live in :mod:`dpnotes.chapter_exercises`, which builds the
:class:`Registry`; :mod:`dpnotes.exercises` is the notebooks' ``check``. The student
copy replaces both with :class:`StudentRegistry` over exported records
(:func:`export`), which hold no answer.
"""

from .code import Code
from .explore import Explore, figure_value
from .numeric import Numeric
from .spec import TASKS, Registry, Slip, Spec
from .student import StudentRegistry, export
from .symbolic import Symbolic
from .verdict import Verdict
from .written import Criterion, Written

__all__ = ["Numeric", "Symbolic", "Code", "Explore", "Written", "Criterion", "Slip", "Spec", "Registry",
           "Verdict", "StudentRegistry", "export", "figure_value", "KINDS", "TASKS"]

#: kind name → spec class
KINDS = {cls.kind: cls for cls in (Numeric, Symbolic, Code, Explore, Written)}
