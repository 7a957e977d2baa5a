"""The grader of the dpnotes assignments: nbgrader preprocessors (copied to ``<course>/grading/dpnotes_autograde.py``).

``nbgrader autograde`` runs a submission in a kernel, then reads each test cell's outputs for
its score. Here the score is not the kernel's to give:

- :class:`SandboxExecute` runs the submission in the sandbox kernel (``<course>/sandbox/``:
  the student copy of the package only, a memory limit, nbgrader's per-cell timeout);
- the hidden part of each test cell only *submits* the answer as data
  (:func:`dpnotes.exercise_kinds.submission.submit`);
- :class:`ScoreAnswers`, in the nbgrader process, reads that data for the cell's exercise
  (by the cell's ``grade_id``), checks it with the package's checker
  (``dpnotes.chapter_exercises.REGISTRY``, the instructor's package, which the kernel cannot
  import) and replaces the cell's outputs with the verdict and the score, which nbgrader then
  records; it also replaces the hidden grading code in the cell's source by a comment, so the
  autograded notebook and the feedback made from it show no grading code;
- :class:`HideGradingCode` (in ``nbgrader generate_feedback``) removes any hidden-test block and
  submitted-answer output left in a notebook, as a second line of defence.

Whatever an answer cell does to the kernel (redefine ``check`` or ``submit``, patch builtins,
print or display fake data), the most it can change is the value submitted for an exercise.
"""

import json
import re
import warnings

from jupyter_client.kernelspec import KernelSpecManager
from nbformat.v4 import new_output
from nbgrader.preprocessors import Execute, NbGraderPreprocessor
from traitlets import Float, Unicode

from dpnotes.exercise_kinds import limits
from dpnotes.exercise_kinds.limits import TimeUp
from dpnotes.exercise_kinds.submission import MAX_PAYLOAD, MEDIA_TYPE, read_payload

HIDDEN = re.compile(r"\n?### BEGIN HIDDEN TESTS\n.*?### END HIDDEN TESTS\n?", re.S)
#: what replaces the hidden part of a test cell in the autograded notebook and the feedback
GRADED_NOTE = "# Graded outside this notebook: the answer above was submitted as data and checked by the course's grader."


class SandboxExecute(Execute):
    """nbgrader's Execute, with the kernel taken from the course's sandbox kernel directory."""

    kernel_dir = Unicode("", help="directory holding the dpnotes-sandbox kernel spec").tag(config=True)

    def create_kernel_manager(self):
        if not self.kernel_dir:
            raise ValueError("SandboxExecute.kernel_dir must name the course's sandbox/kernels directory")
        self.kernel_name = "dpnotes-sandbox"
        specs = KernelSpecManager(kernel_dirs=[self.kernel_dir])
        self.km = self.kernel_manager_class(kernel_name=self.kernel_name, kernel_spec_manager=specs,
                                            config=self.config)
        return self.km


def test_key(cell):
    """The exercise key of an autograded test cell (``grade_id`` ``<key>-test``), or ``None``."""
    meta = cell.get("metadata", {}).get("nbgrader", {})
    gid = meta.get("grade_id", "")
    if cell.get("cell_type") == "code" and meta.get("grade") and not meta.get("solution") and gid.endswith("-test"):
        return gid[: -len("-test")]
    return None


def submitted_documents(cell):
    """The submitted-answer documents among a cell's outputs (as text)."""
    docs = []
    for out in cell.get("outputs", []):
        data = out.get("data", {}) if out.get("output_type") in ("display_data", "execute_result") else {}
        if MEDIA_TYPE in data:
            doc = data[MEDIA_TYPE]
            docs.append(doc if isinstance(doc, str) else json.dumps(doc))
    return docs


def grade_answer(key, docs, registry, points, time_limit=60.0):
    """(verdict text, score) of exercise ``key`` from the documents its test cell emitted."""
    mine = []
    for text in docs:
        if len(text) > MAX_PAYLOAD:
            continue
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError):
            continue
        if isinstance(doc, dict) and doc.get("key") == key:
            mine.append(text)
    if len(mine) != 1:
        what = "no answer was submitted" if not mine else "more than one answer was submitted"
        return f"✗ {key}: {what} for this exercise (score 0).", 0.0
    answer, problem = read_payload(mine[0], key)
    if problem:
        return f"✗ {key}: {problem} (score 0).", 0.0
    try:
        with limits.time_limit(time_limit), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            verdict = registry.check(key, answer)
    except TimeUp:
        return f"✗ {key}: the answer could not be checked within {time_limit:g} s (score 0).", 0.0
    except Exception as err:  # a value the checker refuses is a wrong answer, never a crashed grade
        return f"✗ {key}: the answer could not be checked ({type(err).__name__}) (score 0).", 0.0
    fraction = verdict.fraction or 0.0
    return str(verdict), float(points) * fraction


class ScoreAnswers(NbGraderPreprocessor):
    """Score each test cell from the answer it submitted, with the instructor's registry."""

    time_limit = Float(60.0, help="seconds for checking one answer").tag(config=True)

    def preprocess(self, nb, resources):
        from dpnotes.chapter_exercises import REGISTRY

        for cell in nb.cells:
            key = test_key(cell)
            if key is None:
                continue
            if key not in REGISTRY:
                # a test cell an instructor wrote: graded by nbgrader as usual, from the kernel's outputs (so it
                # is not protected against forging; book/teaching-grading.md says so)
                continue
            points = float(cell.metadata["nbgrader"].get("points", 0))
            text, score = grade_answer(key, submitted_documents(cell), REGISTRY, points, self.time_limit)
            cell.outputs = [new_output("stream", name="stdout", text=text + "\n"),
                            new_output("execute_result", data={"text/plain": repr(score)}, execution_count=None)]
            cell.source = HIDDEN.sub("\n" + GRADED_NOTE + "\n", cell.source).strip("\n")
        return nb, resources


class HideGradingCode(NbGraderPreprocessor):
    """Drop hidden-test code and submitted-answer outputs from every cell (feedback)."""

    def preprocess(self, nb, resources):
        for cell in nb.cells:
            if "### BEGIN HIDDEN TESTS" in cell.source:
                cell.source = HIDDEN.sub("\n" + GRADED_NOTE + "\n", cell.source).strip("\n")
            if cell.cell_type == "code":
                cell.outputs = [o for o in cell.outputs if MEDIA_TYPE not in o.get("data", {})]
        return nb, resources
