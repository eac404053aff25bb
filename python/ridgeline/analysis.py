"""``ridgeline.analyze``: the analytical model in this process."""

from __future__ import annotations

import os
from typing import Any, Dict, Optional, Union

from ridgeline import _core
from ridgeline._documents import Document, Overrides, document_input, override_arguments
from ridgeline._process import report_from_child
from ridgeline.errors import warn_about

PathArgument = Union[str, "os.PathLike[str]"]


def analyze(
    hardware: Document,
    workload: Document,
    set: Overrides = None,
    *,
    roofline: Optional[PathArgument] = None,
    report: Optional[PathArgument] = None,
    csv: Optional[PathArgument] = None,
    skip_unsupported: bool = False,
) -> Dict[str, Any]:
    """The analytical model only: F, Q at HBM, I, roofline, bound, times, footprint.

    Like ``ridgeline analyze HARDWARE WORKLOAD [--set key.path=value ...] --json FILE``, in this
    process, in microseconds; returns the dict that ``--json`` writes (the same keys, in the
    same order, the same numbers).

    Args:
        hardware: hardware file (YAML, top key ``hardware:``): a path, the YAML text, or a dict
            of its keys.
        workload: workload file (YAML, top key ``workload:``), likewise.
        set: override values, e.g. ``{"workload.tile.m": 32}`` or
            ``{"hardware.hbm.bandwidth": "2TB/s"}``, applied in order, as ``--set`` does: a
            string is read as YAML (``"{m: 32, n: 32, k: 32}"`` is a map), ``None`` removes an
            optional key (``{"hardware.l2": None}`` runs without the L2). A list of
            ``"key.path=value"`` strings works too.
        roofline: draw the roofline (ceilings, ridge points, the kernel's analytical point) as
            SVG to this file (``--roofline``).
        report: write a self-contained HTML report (tables and charts) to this file
            (``--report``).
        csv: write the report as one CSV row, with header (``--csv``).
        skip_unsupported: an ONNX model: leave out the operators that map to no kernel, and
            list them, instead of refusing the model (``--skip-unsupported``).

    Returns:
        The report: ``config`` (version, paths, overrides, warnings), ``hardware``,
        ``workload``, ``analytical`` (units in the key names: ``t_ideal_s``,
        ``roof_flop_per_s``, ...). A document given as text or a dict is named ``<hardware>``
        or ``<workload>`` in it. A graph workload (``kind: graph``, ``transformer``,
        ``onnx``) gives the graph's report: its totals and ``analytical.kernels``.

    Raises:
        ConfigError: bad input, with the message ``ridgeline`` prints and its file, line,
            column, key, value, rule and fix as attributes.

    Each file is read once and again only when it changes; each override once per file, so a
    loop over many ``set`` values runs at tens of thousands of calls a second
    (docs/PERFORMANCE.md). The files (roofline, report, csv) are drawn by the bundled
    ``ridgeline analyze`` in a child process, a few milliseconds more. Warnings the command
    line prints on stderr are issued as ``ridgeline.ConfigWarning``.
    """
    if roofline is None and report is None and csv is None and not skip_unsupported:
        hardware_input = document_input(hardware, "hardware")
        workload_input = document_input(workload, "workload")
        result = _core.analyze(hardware_input.path, hardware_input.text, workload_input.path,
                               workload_input.text, override_arguments(set))
    else:
        options = []
        for option, path in (("--roofline", roofline), ("--report", report), ("--csv", csv)):
            if path is not None:
                options += [option, os.fspath(path)]
        if skip_unsupported:
            options.append("--skip-unsupported")
        result = report_from_child("analyze", hardware, workload, set, options)
    warn_about(result)
    return result
