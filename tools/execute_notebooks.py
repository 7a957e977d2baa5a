"""Execute chapter notebooks in a fresh kernel and store small, deterministic outputs.

Kept: every output of a cell tagged ``nbval-check-output`` (what nbval compares),
and short plain-text outputs elsewhere. Dropped: images, widgets and HTML, which
the book's build regenerates anyway. Usage: python tools/execute_notebooks.py [paths]
"""

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
TEXT_LIMIT = 4000


def _keep(cell):
    if "nbval-check-output" in cell.metadata.get("tags", []):
        return cell.outputs
    kept = []
    for out in cell.outputs:
        if out.output_type == "stream" and len(out.text) <= TEXT_LIMIT:
            kept.append(out)
        elif out.output_type in {"execute_result", "display_data"}:
            if "application/vnd.jupyter.widget-view+json" in out.data:
                continue  # live widgets are rebuilt when the notebook runs
            data = {k: v for k, v in out.data.items() if k in {"text/plain", "text/markdown"}}
            if "text/markdown" in data or (data and len(data.get("text/plain", "")) <= TEXT_LIMIT
                                          and not data["text/plain"].startswith("<figure")):
                out.data = data
                out.metadata = {}
                kept.append(out)
    return kept


def execute(path):
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = _keep(cell)
            for out in cell.outputs:
                if "execution_count" in out:
                    out["execution_count"] = cell.execution_count
        cell.metadata.pop("execution", None)
    nb.metadata.pop("widgets", None)
    nbformat.write(nb, path)
    print(f"executed {path.relative_to(ROOT)}")


if __name__ == "__main__":
    paths = [Path(p).resolve() for p in sys.argv[1:]] or sorted((ROOT / "book").glob("*.ipynb"))
    for p in paths:
        execute(p)
