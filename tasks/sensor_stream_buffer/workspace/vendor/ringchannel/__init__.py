"""ringchannel 0.5.1: a bounded, closable channel between threads."""
from .channel import Channel, Closed, Empty, Full

__all__ = ["Channel", "Closed", "Empty", "Full"]
__version__ = "0.5.1"
