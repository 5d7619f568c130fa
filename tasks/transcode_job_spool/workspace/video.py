"""Video rendition profiles: one output per entry of a job's ladder."""
from dataclasses import dataclass

from vendor.tagcodec import register

CODECS = {"h264": "libx264", "hevc": "libx265", "av1": "libsvtav1"}


@register
@dataclass(frozen=True)
class Profile:
    codec: str = "h264"
    bitrate_kbps: int = 3000
    width: int = 1280
    height: int = 720
    fps: int = 30

    def __post_init__(self):
        if self.codec not in CODECS:
            raise ValueError(f"unsupported video codec {self.codec!r}")
        if self.width % 2 or self.height % 2:
            raise ValueError("frame size must be even")

    @property
    def label(self):
        return f"{self.height}p{self.fps}"

    def args(self):
        return ["-c:v", CODECS[self.codec], "-b:v", f"{self.bitrate_kbps}k", "-s", f"{self.width}x{self.height}", "-r", str(self.fps)]
