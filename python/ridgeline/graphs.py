"""``ridgeline.kernels``: a graph's report (``analyze`` or ``run`` of a ``graph``, ``transformer``
or ``onnx`` workload) as a pandas DataFrame with one row per kernel."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Mapping

from ridgeline.errors import RidgelineError

if TYPE_CHECKING:  # pandas is imported when a table is first built: `import ridgeline` stays fast
    import pandas


def kernels(report: Mapping[str, Any]) -> "pandas.DataFrame":
    """One row per kernel of a graph's report, in the order the kernels run.

    The columns are the analytical figures of ``report["analytical"]["kernels"]`` (``name``,
    ``kind``, ``flops``, ``hbm_bytes``, ``time_s`` as T_ideal, ``bound``, ...) and, for a report
    from ``run``, the simulated ones of ``report["simulated"]["kernels"]`` beside them, each
    named ``simulated.<key>`` (``simulated.time_s``, ``simulated.limit``, ...). Sort it with
    ``sort_values("simulated.time_s", ascending=False)`` for where a model's time goes.

    Raises ``RidgelineError`` for the report of a single kernel, which has no kernel list.
    """
    import pandas

    analytical = report.get("analytical", {}).get("kernels")
    if analytical is None:
        raise RidgelineError("the report is a single kernel's: only a graph's report (kind "
                             "graph, transformer or onnx) lists kernels")
    simulated = report.get("simulated", {}).get("kernels")
    rows: List[Dict[str, Any]] = []
    for index, kernel in enumerate(analytical):
        row = dict(kernel)
        if simulated is not None:
            ran = simulated[index]
            if ran["name"] != kernel["name"]:
                raise RidgelineError(f"the report's kernel lists disagree at {index}: "
                                     f"{kernel['name']!r} and {ran['name']!r}")
            row.update({f"simulated.{key}": value for key, value in ran.items() if key != "name"})
        rows.append(row)
    return pandas.DataFrame.from_records(rows)
