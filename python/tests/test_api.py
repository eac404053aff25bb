"""The package's public face: every public function typed and documented, and each reads like
the command's --help, covering every option of the command."""

from __future__ import annotations

import inspect
import re

import pytest

import ridgeline

PUBLIC_FUNCTIONS = [ridgeline.analyze, ridgeline.run, ridgeline.sweep, ridgeline.load_sweep,
                    ridgeline.validate]
PUBLIC_METHODS = [ridgeline.Sweep.best, ridgeline.Sweep.pareto]


@pytest.mark.parametrize("function", PUBLIC_FUNCTIONS + PUBLIC_METHODS,
                         ids=lambda f: f.__qualname__)
def test_typed_and_documented(function):
    signature = inspect.signature(function)
    for name, parameter in signature.parameters.items():
        if name != "self":
            assert parameter.annotation is not inspect.Parameter.empty, name
    assert signature.return_annotation is not inspect.Signature.empty
    assert function.__doc__ and len(function.__doc__.strip()) > 100


def cli_help(cli, command: str):
    """The command's one-line description and its options, from `ridgeline COMMAND --help`."""
    lines = cli(command, "--help").stdout.splitlines()
    options = []
    for line in lines:
        match = re.match(r"\s+((?:-\w,)?--[\w-]+)", line)
        if match:
            options.append(match.group(1).split(","))
    return lines[0], options


@pytest.mark.parametrize("function, command", [
    (ridgeline.analyze, "analyze"), (ridgeline.run, "run"), (ridgeline.sweep, "sweep"),
    (ridgeline.validate, "validate")])
def test_help_reads_like_the_commands(cli, function, command):
    description, options = cli_help(cli, command)
    doc = inspect.getdoc(function)
    first_paragraph = " ".join(doc.split("\n\n")[0].split())
    assert first_paragraph.rstrip(".").lower() == description.lower()
    parameters = inspect.signature(function).parameters
    for names in options:
        long_name = names[-1]
        if long_name in ("--help", "--help-all", "--quiet"):
            continue  # nothing is printed from Python
        # Each option is a parameter of the same name, or named where the docstring says what
        # stands for it (the dict returned for --json, `trace` for --vcd and --timeline).
        parameter = long_name[2:].replace("-", "_")
        assert parameter in parameters or any(f"``{n}" in doc for n in names), long_name
