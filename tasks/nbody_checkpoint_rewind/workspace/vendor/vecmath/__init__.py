"""vecmath: small, dependency-free 3-vectors for simulations and geometry.

Arithmetic operators return new vectors; the augmented forms (+=, -=, *=) update the left vector in place, as array
libraries do, so hot loops do not allocate.
"""
from .vec import Vec3, ZERO
from .geometry import angle_between, cross, project
from .units import AU_M, DAY_S, G, YEAR_S

__all__ = ["AU_M", "DAY_S", "G", "Vec3", "YEAR_S", "ZERO", "angle_between", "cross", "project"]
__version__ = "1.2.0"
