"""``ridgeline.validate``: measured cases of real machines against their simulation, run by the
bundled ``ridgeline validate``."""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any, Dict, Optional, Sequence, Union

from ridgeline._process import Scratch

if TYPE_CHECKING:
    import pandas

PathArgument = Union[str, "os.PathLike[str]"]


class Validation:
    """What ``ridgeline validate`` found.

    Attributes:
        report: the dict ``ridgeline validate --json`` writes: ``cases`` (name, gpu, figure,
            unit, measured, source, and simulated and error_percent, or failure), the
            ``mean_absolute_error_percent``, ``max_abs_error_percent`` and the
            ``correlation`` per figure.
        table: the cases as a pandas DataFrame, one row a case, columns as in ``report``.
    """

    def __init__(self, report: Dict[str, Any]) -> None:
        from pandas import DataFrame  # imported when first needed: `import ridgeline` stays fast

        self.report = report
        self.table: "pandas.DataFrame" = DataFrame.from_records(report["cases"])

    def __repr__(self) -> str:
        return (f"<ridgeline.Validation: {len(self.table)} cases, mean absolute error "
                f"{self.report['mean_absolute_error_percent']:.1f} %>")


def validate(
    files: Union[PathArgument, Sequence[PathArgument]],
    *,
    jobs: Optional[int] = None,
    svg: Optional[PathArgument] = None,
    report: Optional[PathArgument] = None,
    timeout: Optional[float] = None,
) -> Validation:
    """Simulate measured cases of real machines (configs/validation/*.yaml) and compare: a table
    of measured against simulated, the mean and worst error, the correlation.

    Runs ``ridgeline validate FILES... --json FILE``. It reports and does not judge: the errors
    are figures, not exceptions.

    Args:
        files: validation files (YAML, top key ``validation:``; docs/CONFIG.md, "Validation
            files"), one path or several.
        jobs: simulations run at once (``-j``; default: the machine's cores).
        svg: draw simulated against measured (log-log, y = x and a 10 % band, coloured by
            machine) as SVG to this file.
        report: write the table, the statistics and the picture as one self-contained HTML page
            to this file.
        timeout: seconds the whole validation may take (default: no limit).

    Returns:
        ``report`` (the ``--json`` dict) and ``table`` (its cases as a DataFrame).

    Raises:
        ConfigError: a bad validation file or case (exit code 2), with its parts.
        SimulationError: a case's simulation failed (exit code 1: a bug), or the time limit.
    """
    paths = [files] if isinstance(files, (str, os.PathLike)) else list(files)
    with Scratch() as scratch:
        json_path = scratch.path("validation.json")
        arguments = ["validate", *map(os.fspath, paths), "--json", json_path]
        if jobs is not None:
            arguments += ["--jobs", str(jobs)]
        for option, value in (("--svg", svg), ("--report", report)):
            if value is not None:
                arguments += [option, os.fspath(value)]
        scratch.run(arguments, timeout=timeout)
        with open(json_path, encoding="utf-8") as file:
            return Validation(json.load(file))
