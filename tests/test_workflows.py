"""The GitHub Actions workflows: they lint clean (actionlint) and run what the README says CI runs."""

import shutil
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))


def _actionlint():
    found = shutil.which("actionlint", path=str(Path(sys.executable).parent)) or shutil.which("actionlint")
    assert found, "actionlint is missing: make test-deps installs it (requirements-test.txt)"
    return found


def test_workflows_lint_clean():
    assert WORKFLOWS
    out = subprocess.run([_actionlint(), *map(str, WORKFLOWS)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr


def _steps(name):
    flow = yaml.safe_load((ROOT / ".github" / "workflows" / name).read_text(encoding="utf-8"))
    return [step for job in flow["jobs"].values() for step in job.get("steps", [])]


def test_the_book_workflow_runs_make_test_and_deploys_the_published_site():
    runs = [step.get("run", "") for step in _steps("book.yml")]
    assert "make test" in runs
    assert any(r.startswith("make publish BASE_URL=") for r in runs)
    uploads = [s for s in _steps("book.yml") if s.get("uses", "").startswith("actions/upload-pages-artifact")]
    assert uploads and uploads[0]["with"]["path"] == "_build/publish"


def test_ci_runs_the_readme_test_command():
    assert "make test" in (ROOT / ".ci" / "run").read_text()
    assert "make test" in (ROOT / "README.md").read_text()


def test_the_release_workflow_builds_and_checks_both_distributions():
    runs = "\n".join(step.get("run", "") for step in _steps("release.yml"))
    assert "python -m build" in runs and "twine check" in runs
