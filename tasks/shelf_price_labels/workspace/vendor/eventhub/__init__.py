"""eventhub 3.2.0: in-process publish/subscribe with topic patterns.

Subscribers are held weakly by default, so an object that goes away stops receiving events without
having to unsubscribe.
"""
from .events import Event
from .hub import Hub, Subscription
from .patterns import TopicPattern

__all__ = ["Event", "Hub", "Subscription", "TopicPattern"]
__version__ = "3.2.0"
