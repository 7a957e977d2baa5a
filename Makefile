# dpnotes: two commands do everything on a fresh machine.
#   make book   install what is missing, vendor web assets, build _build/html
#   make test   also install test-only pieces (Chromium, reference libraries, the grader), then run all tests
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
PY_SYS ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
GRADING_STAMP := $(VENV)/.installed-grading
HTML := _build/html
PORT ?= 8000

.PHONY: book test bench live serve student assignments formgrader notebooks claims tables vendor clean deps test-deps chromium publish pdf repository

$(STAMP): requirements.txt pyproject.toml
	@test -x $(PY) || $(PY_SYS) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -r requirements.txt
	$(PIP) install --quiet --no-deps --no-build-isolation -e .
	@touch $@

deps: $(STAMP)

$(TEST_STAMP): $(STAMP) requirements-test.txt requirements-grading.txt
	$(PIP) install --quiet -r requirements-test.txt
	@touch $@

test-deps: $(TEST_STAMP) chromium
	$(PY) tools/vendor.py --test

chromium:
	@if ! command -v chromium >/dev/null 2>&1; then \
	  echo "installing Debian's chromium (browser tests)"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; \
	fi

vendor: $(STAMP)
	$(PY) tools/vendor.py

claims: $(STAMP)
	$(PY) tools/api_page.py
	$(PY) tools/claims_pages.py
	$(PY) tools/chapter_map.py
	$(PY) tools/module_chapters.py

# the tables the live sliders read: every slider position of every figure whose spec changed
tables: $(STAMP)
	$(PY) tools/figure_tables.py

book: vendor claims
	$(PY) tools/cache_guard.py
	$(PY) tools/execution_cache.py
	$(VENV)/bin/jupyter-book build . --path-output . --builder html -n -W --keep-going
	@echo "site: $(HTML)/index.html"

$(HTML)/index.html:
	$(MAKE) book

# one PDF of the book (_build/pdf/dpnotes.pdf): every page printed by headless Chromium once its figures
# are drawn and its math typeset, merged with pypdf (title page, numbered contents, outline, page numbers)
pdf: test-deps book
	$(PY) tools/book_pdf.py

# a deployable site in _build/publish: canonical links and social tags for BASE_URL, sitemap.xml,
# robots.txt, 404.html, .nojekyll, a zip of the whole site, .gz copies, the PDF (tools/publish.py)
publish: pdf
	@test -n "$(BASE_URL)" || { echo "usage: make publish BASE_URL=https://example.org/dpnotes/ (where the site will be served)"; exit 2; }
	$(PY) tools/publish.py --base-url "$(BASE_URL)"

# the repository the site is built from (the launch buttons, every chapter's install cell): the Pages
# workflow runs `make repository URL=https://github.com/<owner>/<name>` before it builds, so a fork's site
# installs the fork
repository: $(STAMP)
	@test -n "$(URL)" || { echo "usage: make repository URL=https://github.com/<owner>/<name>"; exit 2; }
	$(PY) tools/install_cell.py --repository "$(URL)"

# `book` is incremental (execution cache, changed pages only), so the site tested is never stale;
# the browser tests read the site as published, served under a sub-path (/dpnotes/)
test: test-deps book
	$(PY) tools/book_pdf.py
	$(PY) tools/publish.py --base-url http://127.0.0.1/dpnotes/
	$(PY) -m pytest -q -p no:cacheprovider --nbval-lax book tests dpnotes \
	  --junitxml=_build/test-results.xml

# benchmarks against the peer accountants, in a venv of their own (the peers never enter the book's)
BENCH_VENV := .venv-bench
BENCH_STAMP := $(BENCH_VENV)/.installed
$(BENCH_STAMP): requirements.txt requirements-bench.txt pyproject.toml
	@test -x $(BENCH_VENV)/bin/python || $(PY_SYS) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install --quiet -r requirements-bench.txt
	$(BENCH_VENV)/bin/python -m pip install --quiet --no-deps --no-build-isolation -e .
	@touch $@

bench: $(BENCH_STAMP)
	cd benchmarks && ../$(BENCH_VENV)/bin/python run.py $(BENCH_ARGS)

live: $(STAMP)
	$(PIP) install --quiet jupyterlab==4.6.6
	$(VENV)/bin/jupyter lab book

serve: $(HTML)/index.html
	$(PY) -m http.server $(PORT) --bind 127.0.0.1 --directory $(HTML)

student: $(STAMP)
	$(PY) tools/student.py student

$(GRADING_STAMP): $(STAMP) requirements-grading.txt
	$(PIP) install --quiet -r requirements-grading.txt
	@touch $@

# nbgrader course directory: source/ (instructor: solutions, hidden tests, rubrics; kept if it exists),
# release/ (students), sandbox/ (the grading kernel), grading/ (the scorer). ONLY="02-composition 05-subsampling"
# chooses chapters; FORCE=1 rewrites source/ from the book (book/teaching-grading.md)
assignments: $(GRADING_STAMP)
	$(PY) tools/assignments.py _build/assignments $(if $(ONLY),--only $(ONLY)) $(if $(FORCE),--force)

# the Formgrader (nbgrader 0.9.6: a JupyterLab extension, menu Nbgrader → Formgrader), in the course directory
formgrader: $(GRADING_STAMP)
	@test -f _build/assignments/nbgrader_config.py || $(MAKE) assignments
	cd _build/assignments && PATH="$(CURDIR)/$(VENV)/bin:$$PATH" jupyter lab

notebooks: $(STAMP)
	$(PY) tools/execute_notebooks.py

clean:
	rm -rf _build _vendor student
