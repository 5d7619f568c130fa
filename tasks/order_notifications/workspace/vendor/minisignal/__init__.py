"""minisignal 1.4.0: in-process signals (publish/subscribe) with weakly referenced receivers."""
from .base import ANY, NamedSignal, Signal, signal

__all__ = ["ANY", "NamedSignal", "Signal", "signal"]
__version__ = "1.4.0"
