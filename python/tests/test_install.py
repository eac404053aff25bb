"""The documented install, without network: pip builds the package from build/python with
Debian's setuptools, the executable inside it, and the installed copy works on its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import BUILD, ROOT, config

CHECK = """
import json, sys, ridgeline
from ridgeline._process import executable
print(json.dumps({
    "package": ridgeline.__file__,
    "executable": executable(),
    "t_ideal_s": ridgeline.analyze(sys.argv[1], sys.argv[2])["analytical"]["t_ideal_s"],
    "time_s": ridgeline.run(sys.argv[1], sys.argv[2], set={"workload.length": 1000})["simulated"]["time_s"],
}))
"""


def test_pip_install_without_network(tmp_path):
    target = tmp_path / "site"
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-index", "--no-deps",
         "--quiet", "--target", str(target), str(BUILD / "python")],
        capture_output=True, text=True)
    assert install.returncode == 0, install.stderr
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("PYTHONPATH", "RIDGELINE_EXECUTABLE")}
    environment["PYTHONPATH"] = str(target)
    hardware, workload = config("hardware/seed.yaml"), config("workloads/vector-add.yaml")
    done = subprocess.run([sys.executable, "-c", CHECK, hardware, workload], cwd=ROOT,
                          env=environment, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["package"] == str(target / "ridgeline" / "__init__.py")
    assert found["executable"] == str(target / "ridgeline" / "bin" / "ridgeline")
    assert found["t_ideal_s"] > 0 and found["time_s"] > 0
