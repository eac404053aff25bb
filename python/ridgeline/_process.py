"""The bundled ``ridgeline`` executable, run as a child process: simulations (SystemC elaborates
once per process), sweeps and validation. Its errors come back as exceptions with their parts
(``--error-format json``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from ridgeline._documents import Document, Overrides, document_input, override_arguments
from ridgeline.errors import RidgelineError, SimulationError, error_from_stderr

_PACKAGE = Path(__file__).resolve().parent


def executable() -> str:
    """The ``ridgeline`` executable the package runs: ``$RIDGELINE_EXECUTABLE`` if set, else the
    copy installed with the package (``ridgeline/bin/ridgeline``), else the one of the build tree
    the package was built in."""
    chosen = os.environ.get("RIDGELINE_EXECUTABLE")
    if chosen:
        return chosen
    installed = _PACKAGE / "bin" / "ridgeline"
    if installed.is_file():
        return str(installed)
    try:
        from ridgeline._build_tree import EXECUTABLE
    except ImportError:
        EXECUTABLE = ""
    if EXECUTABLE and os.path.isfile(EXECUTABLE):
        return EXECUTABLE
    raise RidgelineError(
        "the ridgeline executable was not found: build it (scripts/build.sh), install the package "
        "from the build (docs/PYTHON.md), or set RIDGELINE_EXECUTABLE"
    )


def run_ridgeline(arguments: Sequence[str], *, timeout: Optional[float] = None) -> str:
    """Runs ``ridgeline ARGUMENTS`` and returns its stdout. Raises ``ConfigError`` on bad input
    (exit code 2) and ``SimulationError`` on any other failure, or past ``timeout`` seconds."""
    command = [executable(), "--error-format", "json", *arguments]
    try:
        completed = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True,
                                   text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired as expired:
        stderr = expired.stderr or ""
        if isinstance(stderr, bytes):
            stderr = stderr.decode(errors="replace")
        raise SimulationError(f"ridgeline ran past the time limit of {timeout} s", stderr=stderr)
    if completed.returncode != 0:
        raise error_from_stderr(completed.stderr, completed.returncode)
    return completed.stdout


class Scratch:
    """A temporary folder for a child's files (documents given as text, its JSON report), removed
    at the end of a ``with`` block. ``renames`` maps the temporary paths written there back to the
    names the user knows (``<workload>``), for reports and errors."""

    def __init__(self) -> None:
        self.directory = tempfile.mkdtemp(prefix="ridgeline-")
        self.renames: Dict[str, str] = {}

    def __enter__(self) -> "Scratch":
        return self

    def __exit__(self, *exc: object) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)

    def path(self, name: str) -> str:
        return os.path.join(self.directory, name)

    def write(self, name: str, text: str, shown_as: str) -> str:
        """Writes ``text`` to a file named ``name`` here; messages will name it ``shown_as``."""
        path = self.path(name)
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
        self.renames[path] = shown_as
        return path

    def rename(self, text: str) -> str:
        """``text`` with each temporary path written here replaced by its name."""
        for path, shown_as in self.renames.items():
            text = text.replace(path, shown_as)
        return text

    def run(self, arguments: List[str], *, timeout: Optional[float] = None) -> str:
        """``run_ridgeline`` with errors naming documents as the user gave them."""
        try:
            return run_ridgeline(arguments, timeout=timeout)
        except RidgelineError as error:
            for name in ("message", "file", "stderr"):
                value = getattr(error, name, None)
                if isinstance(value, str):
                    setattr(error, name, self.rename(value))
            error.args = (getattr(error, "message", str(error)),)
            raise


def report_from_child(command: str, hardware: Document, workload: Document, overrides: Overrides,
                      options: Sequence[str] = (), *, timeout: Optional[float] = None
                      ) -> Dict[str, Any]:
    """``ridgeline COMMAND HARDWARE WORKLOAD --set ... --quiet --json FILE OPTIONS`` (``analyze``
    or ``run``) in a child process, its JSON report read back. Documents given as text or dicts
    go to temporary files, named as the package names them (``<workload>``) in the report and
    in errors."""
    with Scratch() as scratch:
        arguments = [command]
        for source, root in ((hardware, "hardware"), (workload, "workload")):
            given = document_input(source, root)
            if given.text is None:
                arguments.append(given.path)
            else:
                arguments.append(scratch.write(f"{root}.yaml", given.text, given.path))
        for override in override_arguments(overrides):
            arguments += ["--set", override]
        json_path = scratch.path("report.json")
        scratch.run([*arguments, "--quiet", "--json", json_path, *options], timeout=timeout)
        with open(json_path, encoding="utf-8") as file:
            return json.loads(scratch.rename(file.read()))
