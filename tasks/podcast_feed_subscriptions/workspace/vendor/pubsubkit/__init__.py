"""pubsubkit: a tiny in-process topic bus."""
from .bus import Bus, DeliveryReport
from .topics import TopicName, match

__all__ = ["Bus", "DeliveryReport", "TopicName", "match"]
__version__ = "0.4.2"
