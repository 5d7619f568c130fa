import pytest

from archive import append_frame, peak_velocity, read_frames
from decoder import decode_frame
from wire_format import FrameError, encode_frame

QUIET = [3, -2, 5, 0, -4, 1]
QUAKE = [12, -340, 1875, -2210, 960, -88]


def test_header_fields_survive_the_wire():
    frame = decode_frame(encode_frame(station_id=17, sequence=90210, start_ms=-1500, samples=QUIET))
    assert (frame.station_id, frame.sequence, frame.start_ms) == (17, 90210, -1500)
    assert len(frame.samples) == len(QUIET)


def test_truncated_frame_is_rejected():
    with pytest.raises(FrameError):
        decode_frame(encode_frame(17, 1, 0, QUIET)[:-1])


def test_bad_magic_is_rejected():
    with pytest.raises(FrameError):
        decode_frame(b"XXXX" + encode_frame(17, 1, 0, QUIET)[4:])


def test_samples_survive_the_wire():
    assert decode_frame(encode_frame(17, 1, 0, QUAKE)).samples == tuple(QUAKE)


def test_archive_keeps_frames_in_order(tmp_path):
    for seq in range(3):
        append_frame(tmp_path / "st17.bin", encode_frame(17, seq, seq * 1000, QUIET))
    assert [f.sequence for f in read_frames(tmp_path / "st17.bin")] == [0, 1, 2]


def test_peak_velocity_from_archive(tmp_path):
    append_frame(tmp_path / "net.bin", encode_frame(17, 1, 0, QUIET))
    append_frame(tmp_path / "net.bin", encode_frame(17, 2, 1000, QUAKE))
    append_frame(tmp_path / "net.bin", encode_frame(23, 1, 0, QUIET))
    frames = read_frames(tmp_path / "net.bin")
    assert peak_velocity(frames, 17) == 2210
    assert peak_velocity(frames, 23) == 5
