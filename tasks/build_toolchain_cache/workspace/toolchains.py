"""Toolchains (interpreters and runtimes) installed into job images, cached across the jobs of a pipeline."""
from dataclasses import dataclass

from vendor.memokit import LRUStore, hashkey, memoize

TOOLCHAIN_VARS = ("PYTHON_VERSION", "NODE_VERSION", "ARCH")
DEFAULTS = {"PYTHON_VERSION": "3.11", "NODE_VERSION": "20", "ARCH": "amd64"}


@dataclass(frozen=True)
class Toolchain:
    image: str
    python: str
    node: str
    arch: str

    @property
    def python_bin(self):
        return f"/opt/python/{self.python}-{self.arch}/bin/python"

    @property
    def node_bin(self):
        return f"/opt/node/{self.node}-{self.arch}/bin/node"


class Installer:
    """Installs toolchains; each install is slow in real life, so it is recorded."""

    def __init__(self):
        self.installs = []

    def install(self, image, spec):
        self.installs.append((image, spec["PYTHON_VERSION"], spec["NODE_VERSION"], spec["ARCH"]))
        return Toolchain(image, spec["PYTHON_VERSION"], spec["NODE_VERSION"], spec["ARCH"])


def toolchain_spec(job):
    spec = dict(DEFAULTS)
    spec.update({k: v for k, v in job.env.items() if k in TOOLCHAIN_VARS})
    return spec


def toolchain_key(job):
    relevant = {k: v for k, v in job.env.items() if k in TOOLCHAIN_VARS}
    return hashkey(job.image, *sorted(relevant))


class ToolchainResolver:
    def __init__(self, installer, maxsize=16):
        self.installer = installer
        self.store = LRUStore(maxsize)
        self.resolve = memoize(self.store, key=toolchain_key)(self._install)

    def _install(self, job):
        return self.installer.install(job.image, toolchain_spec(job))
