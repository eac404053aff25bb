"""Ridgeline's errors and warnings as Python exceptions.

A bad input is the user's fault and says where it is, as the command line does (exit code 2):
``ConfigError`` carries the one-line message ``ridgeline`` prints after ``ridgeline: error:``
and its parts as attributes. Both the in-process analysis and the child processes that simulate
give their errors in the same form (``ridgeline --error-format json``), read here.
"""

from __future__ import annotations

import json
import warnings
from typing import Any, Mapping, Optional

__all__ = [
    "RidgelineError",
    "ConfigError",
    "SimulationError",
    "ConfigWarning",
    "error_from_json",
]


class RidgelineError(Exception):
    """Base class of every error the ridgeline package raises."""


class ConfigError(RidgelineError, ValueError):
    """A bad input: a file, a value, an override or an option that breaks a rule.

    Attributes (``None`` where the error has no such part, as the command line leaves it out):
        message: the whole one-line message, as ``ridgeline`` prints it after
            ``ridgeline: error:``, e.g. ``--set workload.tile.n=8192: workload.tile.n: value
            "8192": the tile is larger than the matrix (n = 4096) (use a tile of at most 4096)``.
        file: the file the value is in, or the ``--set key=value`` override that gave it
            (``<hardware>`` or ``<workload>`` for a document given as text or a dict).
        line: 1-based line in ``file``.
        column: 1-based column in ``file``.
        key: the key path, e.g. ``workload.tile.n``.
        value: the value as written.
        rule: the rule it broke.
        fix: how to put it right.
    """

    def __init__(
        self,
        message: str,
        *,
        file: Optional[str] = None,
        line: Optional[int] = None,
        column: Optional[int] = None,
        key: Optional[str] = None,
        value: Optional[str] = None,
        rule: Optional[str] = None,
        fix: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.value = value
        self.rule = rule
        self.fix = fix

    def __str__(self) -> str:
        return self.message


class SimulationError(RidgelineError, RuntimeError):
    """A child ``ridgeline`` process failed other than on bad input: an internal error (a bug in
    Ridgeline, exit code 1), a crash, or the time limit.

    Attributes:
        message: what went wrong, as ``ridgeline`` printed it.
        exit_code: the child's exit code; negative: the signal that ended it.
        stderr: everything the child wrote on stderr.
    """

    def __init__(self, message: str, *, exit_code: Optional[int] = None, stderr: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
        self.stderr = stderr


class ConfigWarning(UserWarning):
    """A configuration that loads but holds something to know (the command line prints these on
    stderr as ``ridgeline: warning: ...``; reports list them under ``config.warnings``)."""


def warn_about(report: Mapping[str, Any]) -> None:
    """Issues each warning a report records (``config.warnings``) as a ``ConfigWarning``, where
    the command line prints ``ridgeline: warning: ...``, attributed to the package's caller."""
    for text in report["config"]["warnings"]:
        warnings.warn(text, ConfigWarning, stacklevel=3)


def error_from_json(error: Mapping[str, Any]) -> RidgelineError:
    """The exception for one error object of ``ridgeline --error-format json``: ``ConfigError``
    for ``"error": "bad_input"``, ``SimulationError`` otherwise. Unknown parts (line 0, empty
    key) become ``None``."""
    message = str(error.get("message", ""))
    if error.get("error") != "bad_input":
        return SimulationError(message, exit_code=1)

    def part(name: str) -> Any:
        value = error.get(name)
        return value if value not in ("", 0) else None

    return ConfigError(
        message,
        file=part("file"),
        line=part("line"),
        column=part("column"),
        key=part("key"),
        value=part("value"),
        rule=part("rule"),
        fix=part("fix"),
    )


def error_from_stderr(stderr: str, exit_code: int) -> RidgelineError:
    """The exception for a child ``ridgeline --error-format json`` that failed: its last error
    object on stderr, or what it printed when it printed none (a crash)."""
    for line in reversed(stderr.splitlines()):
        if not line.startswith("{"):
            continue
        try:
            error = json.loads(line)
        except ValueError:
            continue
        if isinstance(error, dict) and "error" in error:
            exception = error_from_json(error)
            if isinstance(exception, SimulationError):
                exception.exit_code = exit_code
                exception.stderr = stderr
            return exception
    if exit_code < 0:
        reason = f"ridgeline was killed by signal {-exit_code}"
    else:
        reason = f"ridgeline exited with code {exit_code}"
    last = stderr.strip().splitlines()[-1:] or [""]
    return SimulationError(f"{reason}: {last[0]}" if last[0] else reason, exit_code=exit_code,
                           stderr=stderr)
