"""Running a chapter elsewhere: launch buttons from the one repository URL, Binder's configuration,
and the install cell, run as Colab would run it (here against a local wheel)."""

import json
import os
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import install_cell  # noqa: E402
import wheel_smoke  # noqa: E402

from conftest import HTML  # noqa: E402

CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
REPO = CONFIG["repository"]
OWNER_NAME = REPO["url"].rstrip("/").split("github.com/")[1]
CHAPTERS = sorted(p.stem for p in (ROOT / "book").glob("*.ipynb"))


def test_every_chapter_has_the_current_install_cell():
    assert install_cell.main(["--check"]) == 0


@pytest.mark.parametrize("stem", CHAPTERS)
def test_install_cell_is_first_folded_and_off_the_site(stem):
    cells = json.loads((ROOT / "book" / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    first = code[0]
    assert install_cell.TAG in first["metadata"]["tags"] and "remove-cell" in first["metadata"]["tags"]
    assert first["metadata"]["jupyter"]["source_hidden"] is True
    assert REPO["url"].rstrip("/") in "".join(first["source"])  # the one URL, from _config.yml


@pytest.mark.parametrize("stem", CHAPTERS)
def test_launch_links_open_this_chapter(stem):
    page = (HTML / "book" / f"{stem}.html").read_text(encoding="utf-8")
    colab = f"{CONFIG['launch_buttons']['colab_url']}/github/{OWNER_NAME}/blob/{REPO['branch']}/book/{stem}.ipynb"
    binder = f"{CONFIG['launch_buttons']['binderhub_url']}/v2/gh/{OWNER_NAME}/{REPO['branch']}?urlpath="
    assert colab in page, f"{stem}: no Colab link {colab}"
    assert binder in page and f"book/{stem}.ipynb" in page.split(binder, 1)[1][:200], f"{stem}: no Binder link"


def test_binder_builds_the_supported_environment():
    runtime = (ROOT / "binder" / "runtime.txt").read_text().strip()
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert runtime == "python-" + requires.removeprefix(">=")
    assert "-r ../requirements.txt" in (ROOT / "binder" / "requirements.txt").read_text()
    post = ROOT / "binder" / "postBuild"
    assert os.access(post, os.X_OK) and "pip install --no-deps ." in post.read_text()


@pytest.mark.slow
def test_the_install_cell_installs_the_package_where_it_is_missing(tmp_path):
    env = wheel_smoke.env_for("newest", wheel_smoke.SETS["newest"], ROOT / "_build" / "smoke")
    py = env / "bin" / "python"
    wheel = wheel_smoke.build_wheel(tmp_path / "wheel")
    subprocess.run([str(py), "-m", "pip", "uninstall", "--quiet", "-y", "dpnotes"], check=True)
    with tempfile.TemporaryDirectory() as empty:
        isolated = lambda code: subprocess.run([str(py), "-I", "-c", code], cwd=empty, capture_output=True, text=True)
        assert isolated("import dpnotes").returncode != 0  # missing, as on a fresh Colab
        ran = subprocess.run([str(py), "-c", install_cell.cell_source()], cwd=empty,
                             capture_output=True, text=True, timeout=600,
                             env={**os.environ, "DPNOTES_INSTALL": str(wheel)})
        assert ran.returncode == 0, ran.stdout + ran.stderr
        after = isolated("import dpnotes; print(dpnotes.dpsgd_epsilon(0.01, 1.1, 1000, 1e-5))")
        assert after.returncode == 0, after.stderr
        from dpnotes import dpsgd_epsilon

        assert float(after.stdout) == pytest.approx(dpsgd_epsilon(0.01, 1.1, 1000, 1e-5), rel=1e-9)


def test_a_deployment_names_its_own_repository(tmp_path):
    config = tmp_path / "_config.yml"
    config.write_text((ROOT / "_config.yml").read_text(encoding="utf-8"), encoding="utf-8")
    assert install_cell.set_repository("https://github.com/someone/dp-course", config)
    loaded = yaml.safe_load(config.read_text(encoding="utf-8"))
    assert loaded["repository"]["url"] == "https://github.com/someone/dp-course"
    assert "dpnotes @ git+https://github.com/someone/dp-course@main" in install_cell.cell_source(loaded)
    # every other line is kept, comments included
    before = (ROOT / "_config.yml").read_text(encoding="utf-8").splitlines()
    after = config.read_text(encoding="utf-8").splitlines()
    assert [a for a, b in zip(before, after) if a != b] == [f"  url: {yaml.safe_load(chr(10).join(before))['repository']['url']}"]
    assert not install_cell.set_repository("https://github.com/someone/dp-course", config)


@pytest.mark.parametrize("url", ["http://github.com/a/b", "https://github.com/a/b/", "github.com/a/b",
                                 "https://github.com/a/b?x=1", "", None])
def test_a_repository_url_that_is_not_one_is_refused(tmp_path, url):
    config = tmp_path / "_config.yml"
    config.write_text((ROOT / "_config.yml").read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(ValueError, match="repository URL"):
        install_cell.set_repository(url, config)


def test_the_pages_workflow_sets_the_repository_before_it_builds():
    steps = yaml.safe_load((ROOT / ".github/workflows/book.yml").read_text(encoding="utf-8"))["jobs"]["test"]["steps"]
    runs = [s.get("run", "") for s in steps]
    first_build = next(i for i, r in enumerate(runs) if "make test" in r)
    assert any("make repository URL=" in r and "github.repository" in r for r in runs[:first_build])
