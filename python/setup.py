"""Installs the ridgeline package built in this folder (build/python) into a Python environment,
with the build's ridgeline executable inside it (ridgeline/bin/ridgeline, and beside it the
libraries it loads), which run(), sweep() and validate() start. No network,
Debian's setuptools (docs/PYTHON.md):

    pip install --no-build-isolation --no-index build/python
"""

import glob
import os
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "ridgeline"))
import _build_tree  # noqa: E402  (written by the build: the executable and the version)

# The executable's libraries, which it loads from its own folder: the simulator, when it runs,
# and the ONNX importer, when it reads a model.
LIBRARIES = ["libridgeline_simulator.so", "libridgeline_onnx.so"]


class BuildWithExecutable(build_py):
    """Copies the build's executable and its libraries into the package; leaves the debug
    information of them and of the extension in the build (a tenth of the size installed)."""

    def run(self):
        super().run()
        if not os.path.isfile(_build_tree.EXECUTABLE):
            raise SystemExit(f"{_build_tree.EXECUTABLE} is missing: build Ridgeline first "
                             "(scripts/build.sh)")
        package = os.path.join(self.build_lib, "ridgeline")
        executable = os.path.join(package, "bin", "ridgeline")
        os.makedirs(os.path.dirname(executable), exist_ok=True)
        shutil.copy2(_build_tree.EXECUTABLE, executable)
        binaries = [executable]
        for library in LIBRARIES:
            binaries.append(os.path.join(package, "bin", library))
            shutil.copy2(os.path.join(os.path.dirname(_build_tree.EXECUTABLE), library),
                         binaries[-1])
        binaries += glob.glob(os.path.join(package, "_core*.so"))
        if shutil.which("strip"):
            subprocess.run(["strip", "--strip-debug", *binaries], check=True)


setup(
    name="ridgeline",
    version=_build_tree.VERSION,
    description="Ridgeline, a cycle-approximate accelerator simulator, from Python",
    packages=["ridgeline"],
    package_data={"ridgeline": ["_core*.so", "py.typed"]},
    python_requires=">=3.9",
    install_requires=["pandas", "pyyaml"],
    cmdclass={"build_py": BuildWithExecutable},
    zip_safe=False,
)
