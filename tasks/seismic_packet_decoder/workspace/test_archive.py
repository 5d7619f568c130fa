import pytest

from alerts import confirmed, headline, triggers
from archive import append_frame, peak_velocity, read_frames
from decoder import Frame, decode_frame
from stations import UnknownStation, distance_km, load_register, nearest
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


REGISTER = """id,code,lat,lon,counts_per_um_s
17,ALB,44.60,-123.10,2.0
23,COR,44.57,-123.26,2.5
31,BND,44.06,-121.31,2.0
"""


def test_register_and_distances():
    register = load_register(REGISTER)
    assert register[23].code == "COR" and register[17].velocity(300) == 150.0
    assert 12 < distance_km(register[17], register[23]) < 14
    with pytest.raises(ValueError):
        load_register("id,code,lat,lon,counts_per_um_s\n1,X,95,0,1\n")


def test_alert_needs_two_nearby_stations():
    register = load_register(REGISTER)
    frames = [
        Frame(17, 1, 10_000, (3, 250, 900)),
        Frame(31, 1, 10_020, (1000, 2, 1)),
        Frame(23, 4, 11_500, (5, 4, 600)),
    ]
    found = triggers(frames, register, threshold_um_s=200)
    assert [(t.station_id, t.at_ms) for t in found] == [(17, 10_020), (31, 10_020), (23, 11_520)]
    assert confirmed(found, register) == [17, 23]
    assert confirmed(found[:2], register) == []
    assert headline(found, register) == "BND 500.0 um/s at 10.020 s"
    assert nearest(register, 17) == ["COR", "BND"]
    with pytest.raises(UnknownStation):
        triggers([Frame(99, 1, 0, (1,))], register, 200)
