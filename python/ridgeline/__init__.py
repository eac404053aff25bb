"""Ridgeline from Python: the roofline model and the simulation of a workload on a machine, as
dicts and pandas DataFrames.

    import ridgeline
    report = ridgeline.analyze("configs/hardware/seed.yaml",
                               "configs/workloads/seed/gemm-4096-t128-double.yaml",
                               set={"workload.tile": {"m": 64, "n": 64, "k": 64}})
    report["analytical"]["t_ideal_s"]

- ``analyze``: the analytical model, in this process (``ridgeline analyze --json``).
- ``run``: the simulation, in a child process (``ridgeline run --json``).
- ``sweep`` and ``load_sweep``: design-space sweeps and their results as DataFrames.
- ``validate``: measured cases of real machines against their simulation.
- ``kernels``: a graph's report (a model's) as a DataFrame, one row per kernel.

Hardware and workload are each a path, a YAML string or a dict; ``set`` overrides values as
``--set`` does. Bad input raises ``ConfigError`` with the command line's message and its parts
(file, line, column, key, value, rule, fix). docs/PYTHON.md has the whole picture.
"""

from ridgeline._core import __version__
from ridgeline.analysis import analyze
from ridgeline.errors import ConfigError, ConfigWarning, RidgelineError, SimulationError
from ridgeline.graphs import kernels
from ridgeline.simulation import run
from ridgeline.sweeps import Sweep, load_sweep, sweep
from ridgeline.validation import Validation, validate

__all__ = [
    "__version__",
    "analyze",
    "run",
    "kernels",
    "sweep",
    "load_sweep",
    "Sweep",
    "validate",
    "Validation",
    "ConfigError",
    "ConfigWarning",
    "RidgelineError",
    "SimulationError",
]
