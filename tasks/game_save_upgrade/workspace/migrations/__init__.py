"""Every upgrade step of the save format, registered on import."""
from migrations import v2_health, v3_pixels

__all__ = ["v2_health", "v3_pixels"]
