#!/usr/bin/env python3
"""Calls a second of ridgeline.analyze from Python on one core, with a `set` override that
changes on every call (docs/PERFORMANCE.md, "The Python module"). Medians of repetitions.

    PYTHONPATH=build/python /usr/bin/python3 bench/python/analyze_calls.py [--calls N] [--repetitions R]

Three loops over the note's question 2 GEMM (128 x 128 x 32 tiles, two stages) on the H100 preset:
- grid: a study's loop, tile x stages x HBM bandwidth (5 x 2 x 4 = 40 points) over and over,
  each call another point than the one before: each value is read once (the first pass), every
  call after that copies typed fields;
- new values: an HBM bandwidth never given before on every call (1000GB/s, 1001GB/s, ...): each
  call reads the hardware file with that value (its YAML and its checks, once a call), as a
  sweep reads each axis value; a tenth of the calls, being slower;
- fixed: the same configuration every call (no set).
CPU time of this process (time.process_time), so that other work on the machine counts less.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time
from pathlib import Path

import ridgeline
from ridgeline import _core

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = str(ROOT / "configs/hardware/h100-sxm5-80gb.yaml")
WORKLOAD = str(ROOT / "configs/questions/q2-tile-under-limits/workloads/128x128x32-2stages.yaml")

TILES = [{"m": 64, "n": 64, "k": 32}, {"m": 64, "n": 64, "k": 64}, {"m": 128, "n": 128, "k": 32},
         {"m": 128, "n": 64, "k": 32}, {"m": 64, "n": 128, "k": 32}]
GRID = [{"workload.tile": tile, "workload.stages": stages, "hardware.hbm.bandwidth": bandwidth}
        for tile, stages, bandwidth in itertools.product(TILES, (1, 2),
                                                         ("2TB/s", "3.35TB/s", "4TB/s", "4.8TB/s"))]


def calls_per_second(sets, calls: int) -> float:
    start = time.process_time()
    for overrides in itertools.islice(sets, calls):
        ridgeline.analyze(HARDWARE, WORKLOAD, set=overrides)
    return calls / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20000, help="calls a repetition")
    parser.add_argument("--repetitions", type=int, default=5)
    options = parser.parse_args()
    new_value = itertools.count(1000)
    loops = {  # name: (the set values, in order; calls a repetition)
        "grid (40 points, every call another)": (lambda: itertools.cycle(GRID), options.calls),
        "new values (bandwidth never seen)": (
            lambda: ({"hardware.hbm.bandwidth": f"{next(new_value)}GB/s"}
                     for _ in itertools.count()), options.calls // 10),
        "fixed (no set)": (lambda: itertools.repeat(None), options.calls),
    }
    ridgeline.analyze(HARDWARE, WORKLOAD)  # the files read once, outside the timing
    for name, (make, calls) in loops.items():
        slow_before = _core.slow_loads()
        rates = [calls_per_second(make(), calls) for _ in range(options.repetitions)]
        slow = _core.slow_loads() - slow_before
        print(f"  {name:38} {statistics.median(rates):9,.0f} calls/s (median of "
              f"{options.repetitions}; {min(rates):,.0f} to {max(rates):,.0f}); "
              f"{slow} read whole")


if __name__ == "__main__":
    main()
