"""Audio encoding profiles."""
from dataclasses import dataclass

from vendor.tagcodec import register

CODECS = {"aac": "aac", "opus": "libopus", "mp3": "libmp3lame"}


@register
@dataclass(frozen=True)
class Profile:
    codec: str = "aac"
    bitrate_kbps: int = 128
    sample_rate: int = 48000
    channels: int = 2

    def __post_init__(self):
        if self.codec not in CODECS:
            raise ValueError(f"unsupported audio codec {self.codec!r}")
        if self.channels not in (1, 2, 6):
            raise ValueError("channels must be 1, 2 or 6")

    def args(self):
        return ["-c:a", CODECS[self.codec], "-b:a", f"{self.bitrate_kbps}k", "-ar", str(self.sample_rate), "-ac", str(self.channels)]
