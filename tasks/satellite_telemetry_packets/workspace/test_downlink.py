import pytest

from downlink import FrameError, build_frame, latest_by_kind, read_frame

POWER = {"bus_mv": 8100, "battery_mv": 7420, "solar_ma": 930, "mode": 2}
SPINNING = {"rate_x": 1.25, "rate_y": -0.4, "rate_z": -3.07, "sun_angle": 47.5}
COLD = {"panel_c": -41, "battery_c": 3, "payload_c": -12, "heater_on": 1}


def test_power_packet_round_trip():
    (p,) = read_frame(build_frame([("power", 1, 1_700_000_000, POWER)]))
    assert p["kind"] == "power" and p["sequence"] == 1 and p["values"] == POWER


def test_attitude_rates_keep_their_sign():
    (p,) = read_frame(build_frame([("attitude", 2, 1_700_000_010, SPINNING)]))
    assert p["values"] == SPINNING


def test_thermal_below_freezing():
    (p,) = read_frame(build_frame([("thermal", 3, 1_700_000_020, COLD)]))
    assert p["values"]["panel_c"] == -41
    assert p["values"] == COLD


def test_mixed_frame_and_latest_values():
    warm = {"panel_c": 21, "battery_c": 18, "payload_c": 25, "heater_on": 0}
    frames = [
        build_frame([("power", 1, 100, POWER), ("thermal", 2, 100, warm)]),
        build_frame([("attitude", 3, 110, SPINNING), ("thermal", 4, 110, COLD)]),
    ]
    latest = latest_by_kind(frames)
    assert latest["power"] == POWER
    assert latest["thermal"] == COLD
    assert latest["attitude"]["rate_z"] == -3.07


def test_corrupted_frame_is_rejected():
    frame = bytearray(build_frame([("power", 1, 100, POWER)]))
    frame[9] ^= 0xFF
    with pytest.raises(FrameError, match="CRC"):
        read_frame(bytes(frame))


def test_out_of_range_values_are_refused():
    with pytest.raises(OverflowError):
        build_frame([("power", 1, 100, dict(POWER, bus_mv=70_000))])
