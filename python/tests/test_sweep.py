"""ridgeline.sweep and load_sweep: the results files as DataFrames, the summary's best points and
front, and errors."""

from __future__ import annotations

import json

import pandas
import pytest

import ridgeline
from conftest import ROOT, config, expect_error_equals_cli

TILE_SWEEP = config("sweeps/tile-capacity.yaml")


@pytest.fixture(scope="module")
def capacity(tmp_path_factory) -> ridgeline.Sweep:
    """The note's question 2 as an analytical sweep (30 points, three machines)."""
    out = tmp_path_factory.mktemp("capacity")
    return ridgeline.sweep(ROOT / TILE_SWEEP, out=out, analytical=True)


def test_table_is_results_jsonl(capacity):
    lines = [json.loads(line) for line in
             (capacity.directory / "results.jsonl").read_text().splitlines()]
    table = capacity.table
    assert len(table) == len(lines) == capacity.manifest["points"] == 30
    # The files' columns, units in their names, in the CSV's order.
    header = (capacity.directory / "results.csv").read_text().splitlines()[0].split(",")
    assert list(table.columns) == header
    assert list(table.columns[:6]) == ["point", "status", "reason", "axis.hardware",
                                       "axis.workload.tile", "axis.workload.stages"]
    for row, line in zip(table.to_dict("records"), lines):
        for column, value in line.items():
            if value is None:
                assert row[column] is None or pandas.isna(row[column]), column
            else:
                assert row[column] == value, column


def test_table_dtypes(capacity):
    dtypes = capacity.table.dtypes
    for column in ("point", "axis.workload.stages", "hardware.cores", "analytical.hbm_bytes",
                   "workload.tile.m"):
        assert dtypes[column] == "int64", column
    for column in ("analytical.t_ideal_s", "analytical.roof_flop_per_s",
                   "analytical.intensity_flop_per_byte", "hardware.peak_flop_per_s"):
        assert dtypes[column] == "float64", column
    for column in ("status", "reason", "axis.hardware", "axis.workload.tile", "hardware.name",
                   "analytical.bound"):
        assert dtypes[column] == "object", column
    assert set(capacity.table["status"]) == {"ok", "skipped"}


def test_summary_best_and_front_are_the_sweeps(capacity):
    summary = json.loads((capacity.directory / "summary.json").read_text())
    assert capacity.summary == summary
    for best in summary["best"]:
        row = capacity.best(best["objective"])
        assert row["point"] == best["point"]
    front = capacity.pareto()
    assert list(front["point"]) == [p["point"] for p in summary["pareto"]["points"]]
    assert list(front["time_s"]) == [p["time_s"] for p in summary["pareto"]["points"]]


def test_best_of_an_expression_ranks_the_ok_rows(capacity):
    ok = capacity.table[capacity.table["status"] == "ok"]
    fastest = ok.sort_values(["analytical.t_ideal_s", "point"]).iloc[0]
    assert capacity.best("analytical.t_ideal_s")["point"] == fastest["point"]
    densest = ok.sort_values(["analytical.intensity_flop_per_byte", "point"],
                             ascending=[False, True]).iloc[0]
    assert capacity.best("analytical.intensity_flop_per_byte", maximize=True)["point"] == \
        densest["point"]
    with pytest.raises(ValueError, match="did you mean 'analytical.t_ideal_s'"):
        capacity.best("analytical.t_idael_s")


def test_front_of_two_columns(capacity):
    front = capacity.pareto("analytical.footprint.sram_bytes_per_block",
                            "analytical.roof_flop_per_s", maximize=(False, True))
    ok = capacity.table[capacity.table["status"] == "ok"]
    # No ok point beats a front point on both (less SRAM and no less FLOP/s, or the reverse).
    for _, p in front.iterrows():
        better = ok[(ok["analytical.footprint.sram_bytes_per_block"] <=
                     p["analytical.footprint.sram_bytes_per_block"]) &
                    (ok["analytical.roof_flop_per_s"] >= p["analytical.roof_flop_per_s"]) &
                    ((ok["analytical.footprint.sram_bytes_per_block"] <
                      p["analytical.footprint.sram_bytes_per_block"]) |
                     (ok["analytical.roof_flop_per_s"] > p["analytical.roof_flop_per_s"]))]
        assert better.empty, p["point"]
    assert len(front) >= 2


def test_load_sweep_reads_a_directory_again(capacity):
    again = ridgeline.load_sweep(capacity.directory)
    pandas.testing.assert_frame_equal(again.table, capacity.table)
    assert again.summary == capacity.summary and again.analytical


def test_load_sweep_of_a_stopped_sweep_recomputes_its_summary(capacity, tmp_path):
    stopped = tmp_path / "stopped"
    stopped.mkdir()
    for name in ("sweep.json", "sweep.yaml"):
        (stopped / name).write_bytes((capacity.directory / name).read_bytes())
    lines = (capacity.directory / "results.jsonl").read_text().splitlines(keepends=True)
    # Fourteen points written, the fifteenth cut short by a kill.
    (stopped / "results.jsonl").write_text("".join(lines[:14]) + lines[14][:40])
    sweep = ridgeline.load_sweep(stopped)
    assert list(sweep.table["point"]) == list(range(14))
    assert sweep.summary["points"] == {"ok": int((sweep.table["status"] == "ok").sum()),
                                       "failed": 0,
                                       "skipped": int((sweep.table["status"] == "skipped").sum())}


def test_load_sweep_of_no_sweep_raises_config_error(tmp_path):
    with pytest.raises(ridgeline.ConfigError, match="holds no sweep.json"):
        ridgeline.load_sweep(tmp_path)


def test_a_sweep_given_as_a_dict_simulated(tmp_path):
    """Two simulated points from a dict, relative paths from the current directory; each row's
    figures are those of ridgeline.run for the point."""
    spec = {"sweep": {"hardware": config("hardware/seed.yaml"),
                      "workload": config("workloads/seed/gemm-4096-t64-double.yaml"),
                      "set": {"workload.m": 256, "workload.n": 256, "workload.k": 256},
                      "axes": [{"workload.stages": [1, 2]}]}}
    sweep = ridgeline.sweep(spec, out=tmp_path / "stages", jobs=2)
    assert not sweep.analytical
    assert list(sweep.table["status"]) == ["ok", "ok"]
    for stages, row in zip((1, 2), sweep.table.to_dict("records")):
        report = ridgeline.run(config("hardware/seed.yaml"),
                               config("workloads/seed/gemm-4096-t64-double.yaml"),
                               set={"workload.m": 256, "workload.n": 256, "workload.k": 256,
                                    "workload.stages": stages})
        assert row["simulated.time_s"] == report["simulated"]["time_s"]
        assert row["simulated.achieved_flop_per_s"] == report["simulated"]["achieved_flop_per_s"]
    assert sweep.best("time_s")["point"] in (0, 1)


def test_a_bad_sweep_raises_the_cli_error(cli, tmp_path):
    text = (f"sweep:\n  hardware: {ROOT / config('hardware/seed.yaml')}\n"
            f"  workload: {ROOT / config('workloads/seed/gemm-4096-t64-double.yaml')}\n"
            "  axes:\n    - workload.stagse: [1, 2]\n")
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ridgeline.ConfigError) as raised:
        ridgeline.sweep(path, out=tmp_path / "out", analytical=True)
    cli_error = cli.error("sweep", str(path), "--out", str(tmp_path / "cli"), "--analytical")
    expect_error_equals_cli(raised.value, cli_error)
    assert raised.value.key == "workload.stagse"
    # The same as text: at the same line, in "<sweep>".
    with pytest.raises(ridgeline.ConfigError) as raised:
        ridgeline.sweep(text, out=tmp_path / "text", analytical=True)
    assert (raised.value.file, raised.value.line, raised.value.key) == \
        ("<sweep>", cli_error["line"], "workload.stagse")
