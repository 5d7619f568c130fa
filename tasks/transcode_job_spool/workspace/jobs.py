"""Transcode jobs and the command lines the workers run for them."""
from dataclasses import dataclass, field

import video
from audio import Profile as AudioProfile
from vendor.tagcodec import register

LADDER = (video.Profile(bitrate_kbps=6000, width=1920, height=1080), video.Profile(), video.Profile(bitrate_kbps=800, width=640, height=360))


@register
@dataclass(frozen=True)
class TranscodeJob:
    job_id: str
    source: str
    renditions: tuple = LADDER
    audio: AudioProfile = field(default_factory=AudioProfile)
    priority: int = 5


def commands(job):
    """One ffmpeg argument list per rendition; every output carries the job's audio track."""
    out = []
    for rendition in job.renditions:
        target = f"{job.job_id}/{rendition.label}.mp4"
        out.append(["ffmpeg", "-i", job.source, *rendition.args(), *job.audio.args(), target])
    return out


def from_request(payload):
    """A job from the upload API's JSON body: {"id", "source", optional "audio": {...}, "ladder": [heights], "priority"}."""
    missing = [key for key in ("id", "source") if not payload.get(key)]
    if missing:
        raise ValueError(f"job request lacks {', '.join(missing)}")
    heights = payload.get("ladder")
    renditions = LADDER if heights is None else tuple(p for p in LADDER if p.height in set(heights))
    if not renditions:
        raise ValueError(f"no rendition matches ladder {heights}")
    priority = int(payload.get("priority", 5))
    if not 1 <= priority <= 9:
        raise ValueError("priority must be between 1 and 9")
    return TranscodeJob(str(payload["id"]), payload["source"], renditions, AudioProfile(**payload.get("audio", {})), priority)
