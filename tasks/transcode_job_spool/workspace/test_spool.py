import pytest

import audio
import video
from jobs import TranscodeJob, commands, from_request
from spool import Spool, requeue
from vendor.tagcodec import dumps, loads

PODCAST_AUDIO = audio.Profile(codec="opus", bitrate_kbps=96, sample_rate=44100, channels=1)


def test_commands_cover_the_ladder():
    job = TranscodeJob("ep42", "in/ep42.mov", audio=PODCAST_AUDIO)
    cmds = commands(job)
    assert [c[-1] for c in cmds] == ["ep42/1080p30.mp4", "ep42/720p30.mp4", "ep42/360p30.mp4"]
    assert cmds[0][3:5] == ["-c:v", "libx264"]
    assert cmds[2][-9:-1] == ["-c:a", "libopus", "-b:a", "96k", "-ar", "44100", "-ac", "1"]


def test_job_requests_are_checked():
    job = from_request({"id": 9, "source": "in/9.mov", "ladder": [720, 360], "audio": {"bitrate_kbps": 64}})
    assert [r.label for r in job.renditions] == ["720p30", "360p30"] and job.audio.bitrate_kbps == 64
    for bad in ({"source": "x"}, {"id": 1, "source": "x", "ladder": [480]}, {"id": 1, "source": "x", "priority": 12}):
        with pytest.raises(ValueError):
            from_request(bad)


def test_profiles_validate():
    with pytest.raises(ValueError):
        video.Profile(width=1279)
    with pytest.raises(ValueError):
        audio.Profile(channels=3)


def test_video_profiles_round_trip():
    ladder = list(TranscodeJob("x", "y").renditions)
    assert loads(dumps(ladder)) == ladder


def test_spool_drains_by_priority(tmp_path):
    spool = Spool(tmp_path / "jobs.jsonl")
    for n, priority in enumerate((5, 9, 5, 1)):
        spool.put(TranscodeJob(f"j{n}", f"in/{n}.mov", priority=priority))
    assert len(spool) == 4
    assert [job.job_id for job in spool.drain()] == ["j1", "j0", "j2", "j3"]
    assert len(spool) == 0
    assert requeue(spool, [TranscodeJob("j7", "in/7.mov", priority=9), TranscodeJob("j8", "in/8.mov")]) == 2
    assert [(job.job_id, job.priority) for job in spool.drain()] == [("j7", 9), ("j8", 6)]


def test_spooled_job_keeps_its_audio_settings(tmp_path):
    spool = Spool(tmp_path / "jobs.jsonl")
    job = TranscodeJob("ep43", "in/ep43.mov", audio=PODCAST_AUDIO, priority=7)
    spool.put(job)
    (restored,) = spool.drain()
    assert restored.audio == PODCAST_AUDIO, f"audio came back as {restored.audio!r}"
    assert commands(restored) == commands(job)
