"""examples/notebooks/roofline-study.ipynb runs, headless, from top to bottom: its code cells in
one namespace, in the notebook's folder as Jupyter would, with matplotlib's Agg backend. Its own
asserts check the figures it shows (the note's Q, Q exact, the skipped tiles)."""

from __future__ import annotations

import json
import tempfile

import matplotlib

from conftest import ROOT

NOTEBOOK = ROOT / "examples" / "notebooks" / "roofline-study.ipynb"


def test_notebook_runs(monkeypatch, tmp_path):
    matplotlib.use("Agg")
    monkeypatch.chdir(NOTEBOOK.parent)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # its sweep's results go here
    notebook = json.loads(NOTEBOOK.read_text())
    assert notebook["nbformat"] == 4
    cells = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    assert all(not cell["outputs"] for cell in cells), "commit the notebook without outputs"
    namespace = {"__name__": "__main__"}
    for number, cell in enumerate(cells):
        source = "".join(cell["source"])
        exec(compile(source, f"{NOTEBOOK.name} cell {number + 1}", "exec"), namespace)
    import matplotlib.pyplot as plt

    figure = plt.gcf()
    assert figure.axes and figure.axes[0].get_xscale() == "log"
    plt.close("all")
    assert namespace["capacity"].directory.is_relative_to(tmp_path)
