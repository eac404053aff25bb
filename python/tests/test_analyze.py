"""ridgeline.analyze gives the dict `ridgeline analyze --json` writes, exactly, and its errors."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import pytest
import yaml

import ridgeline
from ridgeline import _core
from ridgeline._documents import override_arguments
from conftest import ROOT, config, expect_error_equals_cli

# Bundled pairs, with overrides the cached loader copies as typed fields and ones it reads whole.
CASES = [
    ("hardware/seed.yaml", "workloads/seed/gemm-4096-t128-double.yaml", []),
    ("hardware/seed.yaml", "workloads/seed/gemm-4096-t32-single.yaml",
     ["workload.tile={m: 64, n: 64, k: 64}", "workload.stages=2"]),
    ("hardware/h100-sxm5-80gb.yaml", "questions/q2-tile-under-limits/workloads/128x128x32-2stages.yaml",
     ["workload.dtype=bf16", "workload.warp_tile={m: 64, n: 32}"]),
    ("hardware/h100-sxm5-80gb.yaml", "workloads/tensor-core/gemm-4096-bf16-hopper.yaml", []),
    ("hardware/a100-sxm4-80gb.yaml", "workloads/vector-add.yaml", ["hardware.hbm.bandwidth=2TB/s"]),
    ("hardware/h100-sxm5-80gb.yaml", "questions/q2-tile-under-limits/workloads/t64-1stage.yaml",
     ["hardware.l2=null"]),
    ("hardware/hbm3-stack.yaml", "workloads/memory/sequential-loads.yaml", []),
    ("hardware/hbm3-stack.yaml", "workloads/memory/sequential-trace.yaml", []),
]


@pytest.mark.parametrize("hardware, workload, overrides", CASES,
                         ids=[f"{Path(w).stem}-{len(o)}" for _, w, o in CASES])
def test_equals_the_cli_json(cli, tmp_path, hardware, workload, overrides):
    expected = cli.report("analyze", config(hardware), config(workload), overrides, tmp_path)
    assert ridgeline.analyze(config(hardware), config(workload), set=overrides) == expected
    # Again, from what the first call cached.
    assert ridgeline.analyze(config(hardware), config(workload), set=overrides) == expected


def test_a_loop_over_set_values_equals_the_cli_each_time(cli, tmp_path):
    hardware = config("hardware/h100-sxm5-80gb.yaml")
    workload = config("questions/q2-tile-under-limits/workloads/128x128x32-2stages.yaml")
    slow_before = _core.slow_loads()
    for tile in (64, 128):
        for stages in (1, 2):
            values = {"workload.tile": {"m": tile, "n": tile, "k": 32}, "workload.stages": stages}
            overrides = override_arguments(values)
            assert overrides == [f'workload.tile={{"m": {tile}, "n": {tile}, "k": 32}}',
                                 f"workload.stages={stages}"]
            report = ridgeline.analyze(hardware, workload, set=values)
            assert report == cli.report("analyze", hardware, workload, overrides, tmp_path)
            assert report["config"]["overrides"] == overrides
    assert _core.slow_loads() == slow_before  # typed fields copied, no document read whole


def test_set_values_as_the_command_line_writes_them():
    assert override_arguments({"a.b": "2TB/s", "c": 32, "d": 2.5, "e": True, "f": None,
                               "g": {"m": 1}, "h": [1, 2]}) == [
        "a.b=2TB/s", "c=32", "d=2.5", "e=true", "f=null", 'g={"m": 1}', "h=[1, 2]"]
    assert override_arguments(["workload.m=64"]) == ["workload.m=64"]
    assert override_arguments(None) == []


def test_documents_as_yaml_text_and_dicts(cli, tmp_path):
    hardware = config("hardware/seed.yaml")
    workload = config("workloads/seed/gemm-4096-t64-double.yaml")
    expected = cli.report("analyze", hardware, workload, [], tmp_path)
    expected["config"]["hardware_path"] = "<hardware>"
    expected["config"]["workload_path"] = "<workload>"
    hardware_text = (ROOT / hardware).read_text()
    workload_text = (ROOT / workload).read_text()
    assert ridgeline.analyze(hardware_text, workload_text) == expected
    hardware_dict = yaml.safe_load(hardware_text)
    workload_dict = yaml.safe_load(workload_text)
    assert ridgeline.analyze(hardware_dict, workload_dict) == expected
    # Without the top key too, and as a path object.
    assert ridgeline.analyze(hardware_dict["hardware"], Path(workload))["analytical"] == \
        expected["analytical"]


def test_a_changed_file_is_read_again(tmp_path):
    hardware = tmp_path / "machine.yaml"
    shutil.copy(ROOT / "configs/hardware/seed.yaml", hardware)
    workload = config("workloads/seed/gemm-4096-t32-double.yaml")
    before = ridgeline.analyze(hardware, workload)["analytical"]["t_memory_s"]
    hardware.write_text(hardware.read_text().replace("bandwidth: 1TB/s", "bandwidth: 2TB/s"))
    assert ridgeline.analyze(hardware, workload)["analytical"]["t_memory_s"] == before / 2


def test_rule_broken_in_a_file_raises_the_cli_error_with_its_position(cli):
    hardware = config("hardware/h100-sxm5-80gb.yaml")
    workload = config("questions/q2-tile-under-limits/workloads/t128-2stages.yaml")
    with pytest.raises(ridgeline.ConfigError) as raised:
        ridgeline.analyze(hardware, workload)
    expect_error_equals_cli(raised.value, cli.error("analyze", hardware, workload))
    assert (raised.value.file, raised.value.line, raised.value.column, raised.value.key) == \
        (workload, 10, 9, "workload.tile")


@pytest.mark.parametrize("workload, overrides", [
    ("workloads/seed/gemm-4096-t64-double.yaml", ["stages=2"]),          # no root
    ("workloads/seed/gemm-4096-t64-double.yaml", ["workload.stagse=2"]),  # unknown key
    ("workloads/seed/gemm-4096-t64-double.yaml", ["workload.stages=two"]),
    ("workloads/no-such-file.yaml", []),
])
def test_other_bad_input_raises_the_cli_error(cli, workload, overrides):
    hardware = config("hardware/seed.yaml")
    workload = f"configs/{workload}"
    arguments = [a for o in overrides for a in ("--set", o)]
    if not (ROOT / workload).exists():  # the command line refuses a missing file itself
        with pytest.raises(ridgeline.ConfigError) as raised:
            ridgeline.analyze(hardware, workload)
        assert (raised.value.file, raised.value.rule) == (workload, "cannot open the file")
        return
    with pytest.raises(ridgeline.ConfigError) as raised:
        ridgeline.analyze(hardware, workload, set=overrides)
    expect_error_equals_cli(raised.value, cli.error("analyze", hardware, workload, *arguments))


def test_warnings_are_python_warnings_and_in_the_report(cli, tmp_path):
    hardware = config("hardware/hbm3-stack.yaml")
    workload = config("workloads/memory/sequential-loads.yaml")
    overrides = ["hardware.hbm.mode=simple"]
    expected = cli.report("analyze", hardware, workload, overrides, tmp_path)
    assert expected["config"]["warnings"]
    with pytest.warns(ridgeline.ConfigWarning) as caught:
        assert ridgeline.analyze(hardware, workload, set=overrides) == expected
    assert [str(w.message) for w in caught] == expected["config"]["warnings"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ridgeline.analyze(hardware, workload)  # none without the override


def test_documents_of_the_wrong_type_are_refused():
    with pytest.raises(TypeError, match="hardware must be a path, a YAML string or a dict"):
        ridgeline.analyze(42, config("workloads/vector-add.yaml"))
    with pytest.raises(TypeError, match="override's value"):
        ridgeline.analyze(config("hardware/seed.yaml"), config("workloads/vector-add.yaml"),
                          set={"workload.length": object()})


def test_files_from_the_executable_and_the_same_report(tmp_path):
    hardware = config("hardware/seed.yaml")
    workload = (ROOT / config("workloads/seed/gemm-4096-t64-double.yaml")).read_text()
    files = [tmp_path / "a.svg", tmp_path / "a.html", tmp_path / "a.csv"]
    with_files = ridgeline.analyze(hardware, workload, set={"workload.stages": 1},
                                   roofline=files[0], report=files[1], csv=files[2])
    assert with_files == ridgeline.analyze(hardware, workload, set={"workload.stages": 1})
    assert with_files["config"]["workload_path"] == "<workload>"
    for path in files:
        assert path.stat().st_size > 0, path
    assert files[0].read_text().lstrip().startswith("<svg")
