"""``ridgeline.sweep`` and ``ridgeline.load_sweep``: design-space sweeps run by the bundled
``ridgeline sweep`` and their results directories read back as pandas DataFrames."""

from __future__ import annotations

import csv
import difflib
import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import yaml

from ridgeline import _core
from ridgeline._documents import Document, yaml_text
from ridgeline._process import Scratch
from ridgeline.errors import ConfigError

if TYPE_CHECKING:  # pandas is imported when a table is first read: `import ridgeline` stays fast
    import pandas

PathArgument = Union[str, "os.PathLike[str]"]


class Sweep:
    """A sweep's results directory (``ridgeline sweep --out DIR``), finished, stopped or merged.

    Attributes:
        directory: the results directory.
        manifest: ``sweep.json``: the sweep file, its mode (``"analytical"`` or
            ``"simulated"``), points, shard, objectives and Pareto pair.
        table: ``results.jsonl`` as a pandas DataFrame, one row a point in point order, the
            columns as the files name them (units in the names): ``point``, ``status`` (ok,
            failed, skipped), ``reason``, ``axis.<key>`` (each swept value as written), then the
            report's ``hardware.*``, ``workload.*``, ``analytical.*`` and, for simulated points,
            ``simulated.*`` and ``components.*``.
        summary: ``summary.json``: points ok, failed and skipped, the best point per objective,
            the Pareto front (recomputed from the rows when a stopped sweep wrote none).
    """

    def __init__(self, directory: PathArgument) -> None:
        self.directory = Path(directory)
        manifest_path = self.directory / "sweep.json"
        results_path = self.directory / "results.jsonl"
        for needed in (manifest_path, results_path):
            if not needed.is_file():
                raise ConfigError(
                    f"{self.directory}: holds no {needed.name} (give a directory written by "
                    "'ridgeline sweep --out' or 'sweep-merge')",
                    file=str(self.directory), rule=f"holds no {needed.name}",
                    fix="give a directory written by 'ridgeline sweep --out' or 'sweep-merge'")
        with open(manifest_path, encoding="utf-8") as file:
            self.manifest: Dict[str, Any] = json.load(file)
        self.table: "pandas.DataFrame" = _read_results(results_path)
        summary_path = self.directory / "summary.json"
        if summary_path.is_file():
            with open(summary_path, encoding="utf-8") as file:
                self.summary: Dict[str, Any] = json.load(file)
        else:
            objectives = [self._objective(o["name"], None) for o in self.manifest["objectives"]]
            self.summary = _core.summarize(str(self.directory), objectives,
                                           list(self.manifest.get("pareto", [])))

    @property
    def analytical(self) -> bool:
        """Whether the sweep evaluated the analytical model only (``--analytical``)."""
        return self.manifest.get("mode") == "analytical"

    def __repr__(self) -> str:
        points = self.summary.get("points", {})
        return (f"<ridgeline.Sweep {str(self.directory)!r}: {len(self.table)} of "
                f"{self.manifest.get('points')} points, {points.get('ok', 0)} ok, "
                f"{points.get('failed', 0)} failed, {points.get('skipped', 0)} skipped>")

    def best(self, objective: str, *, maximize: Optional[bool] = None) -> "pandas.Series":
        """The row of the best ok point for ``objective``.

        Args:
            objective: one of the sweep's objectives by name (``"time_s"``, ``"flop_per_s"``,
                ``"flop_per_s_per_sram_byte"`` by default; ``manifest["objectives"]``), or an
                expression over the columns in the sweep's own language (docs/CONFIG.md,
                "Expressions"), e.g. ``"analytical.t_ideal_s"`` or
                ``"simulated.achieved_flop_per_s / analytical.footprint.sram_bytes_per_block"``.
            maximize: for an expression, whether more is better (default: minimize); for an
                objective of the sweep, overrides its goal.

        Returns:
            The point's row of ``table``. Ties go to the lower point, as in ``summary.json``.

        Raises:
            ValueError: no ok point has a value for the objective (a misspelt column), or the
                expression does not parse.
        """
        spec = self._objective(objective, maximize)
        best = _core.summarize(str(self.directory), [spec], [])["best"][0]
        if best.get("point") is None:
            raise ValueError(self._no_value(objective))
        return self._rows([best["point"]]).iloc[0]

    def pareto(self, x: Optional[str] = None, y: Optional[str] = None, *,
               maximize: Tuple[Optional[bool], Optional[bool]] = (None, None)) -> "pandas.DataFrame":
        """The Pareto front of two objectives: the ok points no other point beats on both.

        Args:
            x, y: objectives by name or as expressions, as ``best`` takes them (default: the
                sweep's Pareto pair, time against FLOP/s unless the sweep file says otherwise).
            maximize: for each of x and y, as ``best`` takes it.

        Returns:
            The front's rows of ``table``, in the order ``summary.json`` lists them, with x and
            y as columns (added where they are expressions rather than columns).
        """
        if x is None and y is None:
            pair = list(self.manifest.get("pareto", []))
            if len(pair) != 2:
                raise ValueError("this sweep has no Pareto pair: give x and y")
            x, y = pair
        if x is None or y is None:
            raise ValueError("give both x and y, or neither (the sweep's own pair)")
        specs = [self._objective(x, maximize[0]), self._objective(y, maximize[1])]
        if x == y:
            raise ValueError("x and y are the same objective")
        front = _core.summarize(str(self.directory), specs, [x, y])["pareto"]["points"]
        if not front:
            raise ValueError(self._no_value(f"{x}' and '{y}"))
        rows = self._rows([p["point"] for p in front])
        for name in (x, y):
            if name not in rows.columns:
                rows[name] = [p[name] for p in front]
        return rows

    def _objective(self, name: str, maximize: Optional[bool]) -> Tuple[str, bool, str]:
        for objective in self.manifest.get("objectives", []):
            if objective["name"] == name:
                goal = objective["goal"] == "maximize" if maximize is None else maximize
                return (name, goal, objective["expression"])
        return (name, bool(maximize), name)

    def _rows(self, points: Sequence[int]) -> "pandas.DataFrame":
        by_point = self.table.set_index("point", drop=False)
        return by_point.loc[list(points)].reset_index(drop=True)

    def _no_value(self, objective: str) -> str:
        message = f"no ok point has a value for '{objective}'"
        near = difflib.get_close_matches(objective, [str(c) for c in self.table.columns], n=1)
        return message + (f" (did you mean '{near[0]}'?)" if near else "")


def _read_results(path: Path) -> "pandas.DataFrame":
    """results.jsonl as a DataFrame: one row a complete line (a line cut short by a killed sweep
    is left out, as the sweep does), the columns in the order the rows bring them."""
    import pandas

    rows: List[Dict[str, Any]] = []
    with open(path, encoding="utf-8") as file:
        for line in file:
            if line.endswith("\n"):
                rows.append(json.loads(line))
    if not rows:
        return pandas.DataFrame({"point": pandas.Series([], dtype="int64"),
                                 "status": pandas.Series([], dtype="object"),
                                 "reason": pandas.Series([], dtype="object")})
    table = pandas.DataFrame.from_records(rows)
    # The rows bring their keys in the order each first appears (a machine without an FP8 energy
    # brings int8's before another brings fp8's); the CSV's header has the sweep's own order.
    header_path = path.with_name("results.csv")
    if header_path.exists():
        with open(header_path, encoding="utf-8", newline="") as file:
            header = next(csv.reader(file), [])
        ordered = [column for column in header if column in table.columns]
        table = table[ordered + [column for column in table.columns if column not in ordered]]
    return table


def load_sweep(directory: PathArgument) -> Sweep:
    """Reads a sweep's results directory (``ridgeline sweep --out DIR``: finished, stopped or
    merged by ``ridgeline sweep-merge``).

    Raises:
        ConfigError: the directory holds no sweep (no sweep.json or results.jsonl).
    """
    return Sweep(directory)


def _with_absolute_paths(text: str, base: str) -> str:
    """The sweep file ``text`` with each relative path of a file it names (the base files, an
    axis of files, zipped or not) made absolute against ``base``, in place: a sweep given as text
    or a dict is written to a temporary folder, and its paths are meant from the current
    directory. The other lines stay as they are, so that errors name the lines of the text."""
    try:
        top = yaml.compose(text)
    except yaml.YAMLError:
        return text  # ridgeline says where it is malformed
    spans: List[Tuple[int, int, str]] = []

    def files(node: yaml.Node) -> None:
        for scalar in node.value if isinstance(node, yaml.SequenceNode) else [node]:
            if (isinstance(scalar, yaml.ScalarNode) and scalar.tag.endswith(":str")
                    and scalar.value and not os.path.isabs(scalar.value)):
                spans.append((scalar.start_mark.index, scalar.end_mark.index,
                              json.dumps(os.path.join(base, scalar.value))))

    def entries(node: yaml.Node) -> List[Tuple[str, yaml.Node]]:
        if not isinstance(node, yaml.MappingNode):
            return []
        return [(key.value, value) for key, value in node.value
                if isinstance(key, yaml.ScalarNode)]

    for _, body in (e for e in entries(top) if e[0] == "sweep"):
        for key, value in entries(body):
            if key in ("hardware", "workload"):
                files(value)
            elif key == "axes" and isinstance(value, yaml.SequenceNode):
                for axis in value.value:
                    for axis_key, values in entries(axis):
                        if axis_key in ("hardware", "workload"):
                            files(values)
                        elif axis_key == "zip":
                            for zipped_key, zipped in entries(values):
                                if zipped_key in ("hardware", "workload"):
                                    files(zipped)
    for start, end, replacement in sorted(spans, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def _sweep_text(spec: Document) -> Optional[str]:
    """The sweep file's text for a sweep given as text or a dict, its files' paths made absolute;
    None for a path."""
    if isinstance(spec, os.PathLike):
        return None
    if isinstance(spec, str):
        if "\n" not in spec and not spec.lstrip().startswith("sweep:"):
            return None
        return _with_absolute_paths(spec, os.getcwd())
    if not isinstance(spec, Mapping):
        raise TypeError(f"spec must be a path, a YAML string or a dict, not {type(spec).__name__}")
    body = spec["sweep"] if len(spec) == 1 and "sweep" in spec else spec
    return _with_absolute_paths(yaml_text("sweep", body), os.getcwd())


def sweep(
    spec: Document,
    out: Optional[PathArgument] = None,
    *,
    jobs: Optional[int] = None,
    analytical: bool = False,
    shard: Union[str, Tuple[int, int], None] = None,
    point_timeout: Optional[float] = None,
    report: Optional[PathArgument] = None,
    roofline: Optional[PathArgument] = None,
    color_by: Optional[str] = None,
    heatmap: Optional[str] = None,
    timeout: Optional[float] = None,
) -> Sweep:
    """Run a design-space sweep (configs/sweeps/*.yaml): every point of its axes, results as CSV
    and JSON lines, resumable, in shards for many machines.

    Runs ``ridgeline sweep SWEEP --out DIR`` and reads ``DIR`` back (``load_sweep``).

    Args:
        spec: sweep file (YAML, top key ``sweep:``): a path, the YAML text, or a dict of its
            keys (docs/CONFIG.md, "Sweeps"). In text and dicts, relative paths start at the
            current directory; in a file, at the file's folder.
        out: results directory; run again with the same one to resume (default: a new
            temporary directory, kept: ``Sweep.directory`` names it).
        jobs: simulations run at once (``-j``; default: the machine's cores).
        analytical: the analytical model only, in the sweep's process (no simulation).
        shard: run only the I-th of N slices (points p with p mod N = I - 1), ``"2/4"`` or
            ``(2, 4)``; join them with ``ridgeline sweep-merge``.
        point_timeout: seconds a simulated point may run before it is killed and recorded
            failed (default: no limit).
        report: at the end, write the sweep's report (summary, heat map, Pareto front, time and
            FLOP/s by axis, roofline, failed and skipped points) as one self-contained HTML
            file.
        roofline: draw every ok point on one roofline (a roof per machine) as SVG to this file.
        color_by: colour the roofline's points by this axis (default: the first that varies).
        heatmap: the heat map's two axes, ``"AXIS,AXIS"`` (default: the first two that vary).
        timeout: seconds the whole sweep may take (default: no limit).

    Returns:
        The results: ``table`` (a DataFrame), ``summary``, ``best()``, ``pareto()``.

    Raises:
        ConfigError: a bad sweep file or option (the command's exit code 2), with its parts.
        SimulationError: the sweep failed otherwise.

    A point that breaks a rule or whose simulation fails is a row with status ``failed`` and
    the reason, not an exception.
    """
    directory = os.fspath(out) if out is not None else tempfile.mkdtemp(prefix="ridgeline-sweep-")
    with Scratch() as scratch:
        text = _sweep_text(spec)
        spec_path = os.fspath(spec) if text is None else scratch.write("sweep.yaml", text, "<sweep>")
        arguments = ["sweep", spec_path, "--out", directory]
        if jobs is not None:
            arguments += ["--jobs", str(jobs)]
        if analytical:
            arguments.append("--analytical")
        if shard is not None:
            arguments += ["--shard", shard if isinstance(shard, str) else f"{shard[0]}/{shard[1]}"]
        options = {"--point-timeout": point_timeout, "--report": report,
                   "--roofline": roofline, "--color-by": color_by, "--heatmap": heatmap}
        for option, value in options.items():
            if value is not None:
                arguments += [option, os.fspath(value) if isinstance(value, os.PathLike)
                              else str(value)]
        scratch.run(arguments, timeout=timeout)
    return load_sweep(directory)
