"""ridgeline.validate gives the dict `ridgeline validate --json` writes, and its cases as a
DataFrame."""

from __future__ import annotations

import json

import pytest

import ridgeline
from conftest import ROOT, config


def validation_file(tmp_path, measured: str = "900GB/s") -> str:
    """Two cheap cases on the seed machine: a vector add's bandwidth, a small GEMM's time."""
    path = tmp_path / "cases.yaml"
    path.write_text(f"""validation:
  cases:
    - name: seed-triad
      gpu: seed machine
      hardware: {ROOT / config("hardware/seed.yaml")}
      workload: {ROOT / config("workloads/vector-add.yaml")}
      set: {{workload.length: 100000}}
      figure: bandwidth
      measured: {measured}
      source: "a made-up measurement, for the test"
    - name: seed-gemm
      gpu: seed machine
      hardware: {ROOT / config("hardware/seed.yaml")}
      workload: {ROOT / config("workloads/seed/gemm-4096-t64-double.yaml")}
      set: {{workload.m: 256, workload.n: 256, workload.k: 256}}
      figure: time
      measured: 20us
      source: "a made-up measurement, for the test"
""")
    return str(path)


def test_equals_the_cli_json(cli, tmp_path):
    path = validation_file(tmp_path)
    done = cli("validate", path, "--json", str(tmp_path / "cli.json"))
    assert done.returncode == 0, done.stderr
    expected = json.loads((tmp_path / "cli.json").read_text())
    result = ridgeline.validate(path, jobs=2, svg=tmp_path / "v.svg")
    assert result.report == expected
    assert (tmp_path / "v.svg").stat().st_size > 0
    assert list(result.table["name"]) == ["seed-triad", "seed-gemm"]
    assert list(result.table.columns[:6]) == ["name", "gpu", "figure", "unit", "measured",
                                              "source"]
    assert result.table["error_percent"].dtype == "float64"
    assert list(result.table["error_percent"]) == [c["error_percent"] for c in expected["cases"]]


def test_bad_case_raises_config_error(tmp_path):
    path = validation_file(tmp_path, measured="900")
    with pytest.raises(ridgeline.ConfigError) as raised:
        ridgeline.validate(path)
    # "measured: 900" is line 9 of the file, its value at column 17.
    assert (raised.value.file, raised.value.line, raised.value.column, raised.value.key) == \
        (path, 9, 17, "validation.cases[0].measured")
