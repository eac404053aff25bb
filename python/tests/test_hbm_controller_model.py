"""scripts/hbm-controller-model.py, the cycle-by-cycle model of Ramulator 2.1's HBM controller that
docs/DRAM-VALIDATION.md uses to put RoBaRaCoCh's 18 points on tCCD_R: the script runs, and its
figures say what the document says they say."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "hbm-controller-model.py"


def share_of_peak(mapping: str, tccd_r: int) -> float:
    # One channel: a sequential stream loads every channel alike, so one stands for the stack
    # (within 2 points of the 16 in docs/DRAM-VALIDATION.md) at a sixteenth of the time.
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--mapping", mapping, "--tccd-r", str(tccd_r),
         "--channels", "1", "--cycles", "40000"],
        check=True, capture_output=True, text=True).stdout
    match = re.search(r": ([0-9.]+) % of peak$", out.strip())
    assert match, out
    return float(match.group(1))


def test_tccd_r_costs_the_sequential_robaracoch_stream_its_interleaving() -> None:
    with_tccd_r = share_of_peak("RoBaRaCoCh", 3)
    without = share_of_peak("RoBaRaCoCh", 2)
    # Alternating stack IDs at 3 CK a burst caps a pseudo-channel at two thirds of its bus.
    assert with_tccd_r < 200 / 3
    # Without tCCD_R the same scheduling interleaves the next rows for free: the 16 to 18 points
    # Ridgeline (which leaves tCCD_R out) stands above Ramulator 2.1 on this stream.
    assert without - with_tccd_r > 12


def test_the_scheduler_groups_stack_ids_of_the_sequential_mop4clxor_stream() -> None:
    # MOP4CLXOR alternates stack IDs burst by burst in a pseudo-channel: paid on every burst,
    # tCCD_R would cap it at two thirds; taking the ready read groups them and it costs little.
    with_tccd_r = share_of_peak("MOP4CLXOR", 3)
    assert with_tccd_r > 85
    assert share_of_peak("MOP4CLXOR", 2) - with_tccd_r < 3
