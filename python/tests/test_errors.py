"""analyze (in process) and run (a child process) raise the same ConfigError as the command line,
with its parts as attributes, for an override and for a document given as text."""

from __future__ import annotations

import pytest

import ridgeline
from conftest import ROOT, config, expect_error_equals_cli

COMMANDS = [(ridgeline.analyze, "analyze"), (ridgeline.run, "run")]


@pytest.mark.parametrize("function, command", COMMANDS, ids=[c for _, c in COMMANDS])
def test_bad_override(cli, function, command):
    hardware = config("hardware/seed.yaml")
    workload = config("workloads/seed/gemm-4096-t64-double.yaml")
    with pytest.raises(ridgeline.ConfigError) as raised:
        function(hardware, workload, set={"workload.tile.n": 8192})
    expect_error_equals_cli(raised.value, cli.error(command, hardware, workload, "--set",
                                                    "workload.tile.n=8192"))
    assert (raised.value.file, raised.value.line, raised.value.key, raised.value.value) == \
        ("--set workload.tile.n=8192", None, "workload.tile.n", "8192")
    assert isinstance(raised.value, ValueError)


@pytest.mark.parametrize("function, command", COMMANDS, ids=[c for _, c in COMMANDS])
def test_rule_broken_in_a_document_given_as_text(cli, function, command):
    hardware = config("hardware/h100-sxm5-80gb.yaml")
    workload = config("questions/q2-tile-under-limits/workloads/t128-2stages.yaml")
    with pytest.raises(ridgeline.ConfigError) as raised:
        function(hardware, (ROOT / workload).read_text())
    # The command line's error for the file, at the same line and column, in "<workload>".
    expect_error_equals_cli(raised.value, cli.error(command, hardware, workload),
                            file="<workload>")
    assert (raised.value.line, raised.value.column, raised.value.key) == (10, 9, "workload.tile")


def test_command_line_errors_as_json_read_as_text(cli):
    """`--error-format json` before the command: a misspelt command is still named as one."""
    error = cli.error("rn", "configs/hardware/seed.yaml")
    assert error["message"].startswith("unknown command 'rn' (did you mean 'run'?")
    assert set(error) == {"error", "message", "text_line"}  # no file, line or key to give
