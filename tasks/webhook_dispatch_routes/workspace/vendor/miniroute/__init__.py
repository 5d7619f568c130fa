"""miniroute 0.8.0: URL routing with typed path parameters. Routes are tried in the order they were added."""
from .router import MethodNotAllowed, NotFound, Route, Router

__all__ = ["MethodNotAllowed", "NotFound", "Route", "Router"]
__version__ = "0.8.0"
