"""The kernel that runs submissions under ``nbgrader autograde`` (copied to ``<course>/sandbox/kernel.py``).

Started by the kernel spec ``<course>/sandbox/kernels/dpnotes-sandbox/kernel.json`` with
``python -I -S kernel.py MEMORY_MB CPU_SECONDS -f CONNECTION_FILE``:

- ``-I -S``: no environment variables, no user site, and no ``site`` processing, so the
  grading environment's ``.pth`` files (the editable install of the instructor's checkout
  among them) are never run; ``sys.path`` is the standard library, the student copy of the
  package (``<course>/sandbox/``, no ``dpnotes.chapter_exercises``) and the environment's
  site-packages (an installed ``dpnotes`` there is shadowed by the student copy, which comes first);
- an address-space limit of ``MEMORY_MB`` (an allocation beyond it raises ``MemoryError`` in
  the learner's cell) and a processor-time limit of ``CPU_SECONDS`` for the whole kernel (a
  backstop: nbgrader's per-cell timeout interrupts a cell long before).

Only the standard library is imported before the limits are set.
"""

import json
import os
import resource
import sys


def sandbox_path(here, stdlib_and_site):
    """``sys.path`` for the kernel: the student copy first (its ``dpnotes`` shadows any other), then what
    Python needs (the standard library, site-packages), each once."""
    out = [here]
    for entry in stdlib_and_site:
        if entry and os.path.isdir(entry) and entry not in out:
            out.append(entry)
    return out


def main(argv):
    memory_mb, cpu_seconds, rest = int(argv[0]), int(argv[1]), argv[2:]
    here = os.path.dirname(os.path.abspath(__file__))
    limit = memory_mb * 2 ** 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))
    with open(os.path.join(here, "site-packages.json"), encoding="utf-8") as fh:
        site_packages = json.load(fh)  # the grading environment's, written with the kernel spec
    sys.path[:] = sandbox_path(here, [p for p in sys.path if p] + site_packages)
    os.environ.pop("PYTHONPATH", None)
    os.environ["MPLBACKEND"] = "agg"
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # thread pools reserve memory
        os.environ[name] = "1"
    sys.argv = ["dpnotes-sandbox-kernel", *rest]
    from ipykernel import kernelapp

    kernelapp.launch_new_instance()


if __name__ == "__main__":
    main(sys.argv[1:])
