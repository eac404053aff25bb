"""``ridgeline.run``: a simulation, in a child process of the bundled ``ridgeline`` executable
(SystemC elaborates one system per process)."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence, Union

from ridgeline._documents import Document, Overrides
from ridgeline._process import report_from_child
from ridgeline.errors import warn_about

PathArgument = Union[str, "os.PathLike[str]"]


def _trace_arguments(trace: Union[PathArgument, Sequence[PathArgument], None]) -> List[str]:
    if trace is None:
        return []
    paths = [trace] if isinstance(trace, (str, os.PathLike)) else list(trace)
    arguments: List[str] = []
    for path in map(os.fspath, paths):
        arguments += ["--vcd" if path.endswith(".vcd") else "--timeline", path]
    return arguments


def run(
    hardware: Document,
    workload: Document,
    set: Overrides = None,
    *,
    trace: Union[PathArgument, Sequence[PathArgument], None] = None,
    trace_signals: Optional[Sequence[str]] = None,
    trace_level: Optional[str] = None,
    trace_start: Optional[str] = None,
    trace_end: Optional[str] = None,
    trace_limit: Optional[str] = None,
    trace_rate_window: Optional[str] = None,
    report: Optional[PathArgument] = None,
    roofline: Optional[PathArgument] = None,
    csv: Optional[PathArgument] = None,
    busy_profile: Optional[PathArgument] = None,
    timeout: Optional[float] = None,
    l2_resident: Optional[Sequence[str]] = None,
    l2_written: Optional[Sequence[str]] = None,
    jobs: Optional[int] = None,
    skip_unsupported: bool = False,
) -> Dict[str, Any]:
    """Simulate the workload on the hardware and report it beside the analytical model.

    Runs ``ridgeline run HARDWARE WORKLOAD [--set key.path=value ...] --json FILE`` in a child
    process and returns the dict ``--json`` writes: everything ``analyze`` gives and
    ``simulated`` (time, achieved FLOP/s and bytes/s per level, measured I, utilisation, where
    the cores' time went, the limiter) and ``components``.

    Args:
        hardware: hardware file (YAML, top key ``hardware:``): a path, the YAML text, or a dict
            of its keys.
        workload: workload file (YAML, top key ``workload:``), likewise.
        set: override values, e.g. ``{"workload.tile.m": 32}``; as in ``analyze`` (``--set``).
        trace: write what every unit did over time to this file (or each of these files): a
            VCD waveform for GTKWave when the name ends in ``.vcd`` (``--vcd``; a GTKWave save
            file ``.gtkw`` beside it), else a timeline in the Chrome / Perfetto trace event
            JSON format (``--timeline``).
        trace_signals: trace only signals matching these hierarchy globs, e.g. ``["top.core0.*",
            "top.hbm"]`` (``--trace``; default: all).
        trace_level: detail: ``"busy"``, ``"counters"`` (queues, in flight, blocks, stages) or
            ``"rates"`` (bandwidth and FLOP rate) (``--trace-level``; default: rates).
        trace_start: trace from this simulated time, e.g. ``"10us"`` (``--trace-start``).
        trace_end: trace until this simulated time (``--trace-end``).
        trace_limit: stop a trace file before it passes this size, e.g. ``"64MiB"``
            (``--trace-limit``).
        trace_rate_window: window of the rate signals (``--trace-rate-window``; default: about
            T_ideal / 1000).
        report: write a self-contained HTML report (tables and charts) to this file
            (``--report``).
        roofline: draw the roofline (ceilings, ridge points, the kernel's analytical and
            simulated points) as SVG to this file (``--roofline``).
        csv: write the report as one CSV row, with header (``--csv``).
        busy_profile: write the units' busy time over the run as JSON to this file: per time
            bucket (up to 240), the fraction of it the cores had loads in flight, computed and
            had stores in flight, the L2's port and the HBM's channels were busy
            (``--busy-profile``; a single kernel's).
        timeout: seconds the simulation may take; past them it is killed and
            ``SimulationError`` raised (default: no limit).
        l2_resident: start with these input tensors of the workload (``"A"``, ``"x"``) in the
            L2, as a kernel before it would leave them having read them (``--l2-resident``).
        l2_written: the same for tensors a kernel before wrote and none read since: at their
            home partition only (``--l2-written``).
        jobs: a graph workload's distinct kernels simulated at once (``-j``; default: the
            machine's cores).
        skip_unsupported: an ONNX model: leave out the operators that map to no kernel, and
            list them, instead of refusing the model (``--skip-unsupported``).

    Returns:
        The report, as ``ridgeline run --json`` writes it. A document given as text or a dict
        is named ``<hardware>`` or ``<workload>`` in it.

    Raises:
        ConfigError: bad input (the command's exit code 2), with the message ``ridgeline``
            prints and its file, line, column, key, value, rule and fix as attributes.
        SimulationError: the simulation failed otherwise (an internal error, a crash, the
            time limit).

    Relative paths are the current directory's, as on the command line; a trace file named by
    a relative path in a workload given as text or a dict needs an absolute path here (the
    child reads that workload from a temporary folder).
    """
    arguments = _trace_arguments(trace)
    if isinstance(trace_signals, str):
        trace_signals = [trace_signals]
    for pattern in trace_signals or []:
        arguments += ["--trace", pattern]
    options = {
        "--trace-level": trace_level,
        "--trace-start": trace_start,
        "--trace-end": trace_end,
        "--trace-limit": trace_limit,
        "--trace-rate-window": trace_rate_window,
        "--report": report,
        "--roofline": roofline,
        "--csv": csv,
        "--busy-profile": busy_profile,
    }
    for option, value in options.items():
        if value is not None:
            arguments += [option, os.fspath(value)]
    if l2_resident:
        arguments += ["--l2-resident", ",".join(l2_resident)]
    if l2_written:
        arguments += ["--l2-written", ",".join(l2_written)]
    if jobs is not None:
        arguments += ["-j", str(jobs)]
    if skip_unsupported:
        arguments.append("--skip-unsupported")
    result = report_from_child("run", hardware, workload, set, arguments, timeout=timeout)
    warn_about(result)
    return result
