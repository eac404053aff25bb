"""ridgeline.run gives the dict `ridgeline run --json` writes, exactly, its files and its errors."""

from __future__ import annotations

import json

import pytest
import yaml

import ridgeline
from conftest import ROOT, config, expect_error_equals_cli

# Small simulations (tens of milliseconds): a GEMM with an L2 and one without, a vector add.
CASES = [
    ("hardware/seed.yaml", "workloads/seed/gemm-4096-t64-double.yaml",
     ["workload.m=512", "workload.n=512", "workload.k=512"]),
    ("hardware/seed-l2.yaml", "workloads/seed/gemm-4096-t32-single.yaml",
     ["workload.m=256", "workload.n=256", "workload.k=256"]),
    ("hardware/seed.yaml", "workloads/vector-add.yaml", ["workload.length=100000"]),
]


@pytest.mark.parametrize("hardware, workload, overrides", CASES,
                         ids=[f"{h.split('/')[-1][:-5]}-{w.split('/')[-1][:-5]}"
                              for h, w, _ in CASES])
def test_equals_the_cli_json(cli, tmp_path, hardware, workload, overrides):
    expected = cli.report("run", config(hardware), config(workload), overrides, tmp_path)
    report = ridgeline.run(config(hardware), config(workload), set=overrides)
    assert report == expected
    assert report["simulated"]["time_s"] > 0


def test_documents_as_dicts_are_named_in_the_report(cli, tmp_path):
    hardware = config("hardware/seed.yaml")
    workload = config("workloads/vector-add.yaml")
    overrides = ["workload.length=100000"]
    expected = cli.report("run", hardware, workload, overrides, tmp_path)
    report = ridgeline.run(yaml.safe_load((ROOT / hardware).read_text()),
                           yaml.safe_load((ROOT / workload).read_text()),
                           set={"workload.length": 100000})
    assert (report["config"]["hardware_path"], report["config"]["workload_path"]) == \
        ("<hardware>", "<workload>")
    for section in ("hardware", "workload", "analytical", "simulated", "components"):
        assert report[section] == expected[section], section


def test_writes_the_files_asked_for(tmp_path):
    files = {name: tmp_path / name for name in ("run.vcd", "run.json", "run.html", "run.svg",
                                                "run.csv", "run.busy.json")}
    report = ridgeline.run(config("hardware/seed.yaml"), config("workloads/vector-add.yaml"),
                           set={"workload.length": 100000},
                           trace=[files["run.vcd"], files["run.json"]], trace_level="counters",
                           trace_signals=["top.core0.*", "top.hbm"], report=files["run.html"],
                           roofline=files["run.svg"], csv=files["run.csv"],
                           busy_profile=files["run.busy.json"])
    for path in files.values():
        assert path.stat().st_size > 0, path
    assert (tmp_path / "run.gtkw").is_file()  # beside the VCD
    timeline = json.loads(files["run.json"].read_text())
    assert any(event.get("ph") == "X" for event in timeline["traceEvents"])
    busy = json.loads(files["run.busy.json"].read_text())
    assert busy["run_s"] == report["simulated"]["time_s"]
    assert all(0 <= f <= 1 for f in busy["busy_fraction"]["hbm"]) and max(busy["busy_fraction"]["hbm"]) > 0
    header, row = files["run.csv"].read_text().splitlines()
    assert float(row.split(",")[header.split(",").index("simulated.time_s")]) == \
        report["simulated"]["time_s"]


def test_bad_trace_option_raises_the_cli_error(cli):
    hardware = config("hardware/seed.yaml")
    workload = config("workloads/vector-add.yaml")
    with pytest.raises(ridgeline.ConfigError) as raised:
        ridgeline.run(hardware, workload, trace_level="busy")
    expect_error_equals_cli(raised.value,
                            cli.error("run", hardware, workload, "--trace-level", "busy"))
    assert raised.value.file == "--trace options"


def test_time_limit_raises_simulation_error():
    with pytest.raises(ridgeline.SimulationError, match="time limit"):
        ridgeline.run(config("hardware/seed.yaml"), config("workloads/seed/gemm-4096-t32-double.yaml"),
                      timeout=0.05)
