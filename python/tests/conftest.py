"""Shared fixtures: the checkout, the build's executable, and the command line's own answers to
compare the package's with."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("RIDGELINE_BUILD_DIR", ROOT / "build"))
if not BUILD.is_absolute():
    BUILD = ROOT / BUILD
EXECUTABLE = BUILD / "ridgeline"


@pytest.fixture(autouse=True)
def in_checkout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs in the checkout's root, where relative config paths start, as the README's
    commands do."""
    monkeypatch.chdir(ROOT)


class Cli:
    """The ridgeline executable as a user runs it, for the numbers and errors to compare with."""

    def __call__(self, *arguments: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(EXECUTABLE), *arguments], capture_output=True, text=True,
                              cwd=ROOT)

    def report(self, command: str, hardware: str, workload: str, overrides: List[str],
               tmp_path: Path) -> Dict[str, Any]:
        """`ridgeline COMMAND HARDWARE WORKLOAD --set ... --json FILE`, read back."""
        out = tmp_path / f"{command}-cli.json"
        arguments = [command, hardware, workload]
        for override in overrides:
            arguments += ["--set", override]
        done = self(*arguments, "--quiet", "--json", str(out))
        assert done.returncode == 0, done.stderr
        return json.loads(out.read_text())

    def error(self, *arguments: str) -> Dict[str, Any]:
        """The error object of `ridgeline --error-format json ARGUMENTS` (which must fail with
        exit code 2), and the text line the same command prints without the option."""
        done = self("--error-format", "json", *arguments)
        assert done.returncode == 2, done.stderr
        error = json.loads(done.stderr.strip().splitlines()[-1])
        text = self(*arguments)
        assert text.returncode == 2
        error["text_line"] = text.stderr.strip().splitlines()[-1]
        return error


@pytest.fixture
def cli() -> Cli:
    assert EXECUTABLE.is_file(), f"{EXECUTABLE} is missing: build first (scripts/build.sh)"
    return Cli()


def config(relative: str) -> str:
    """A bundled configuration's path as the README's commands name it (from the root)."""
    assert (ROOT / "configs" / relative).is_file(), relative
    return f"configs/{relative}"


def expect_error_equals_cli(error: Any, cli_error: Dict[str, Any],
                            file: Optional[str] = None) -> None:
    """`error` (a ridgeline.ConfigError) has the command line's message and parts; unknown parts
    (line 0, empty key) are None. `file`: the name the package gives a document that the command
    line read from the file `cli_error["file"]`."""
    # The command line's two forms agree: its JSON's message is its one line of text.
    assert cli_error["text_line"] == "ridgeline: error: " + cli_error["message"]
    expected = dict(cli_error)
    if file is not None:
        expected["message"] = expected["message"].replace(expected["file"], file)
        expected["file"] = file
    assert error.message == expected["message"]
    assert str(error) == error.message
    for part in ("file", "line", "column", "key", "value", "rule", "fix"):
        assert getattr(error, part) == (expected[part] or None), part
