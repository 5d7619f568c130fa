"""Packet layouts for the CUBE-3 housekeeping telemetry, with each field's engineering scale."""
from vendor.bitframe import U8, U16, U32, Field, Layout

HEADER = Layout("header", [
    Field("apid", U16),
    Field("sequence", U16),
    Field("seconds", U32),
    Field("length", U16),
])

POWER = Layout("power", [
    Field("bus_mv", U16),
    Field("battery_mv", U16),
    Field("solar_ma", U16),
    Field("mode", U8),
])

ATTITUDE = Layout("attitude", [
    Field("rate_x", U16),
    Field("rate_y", U16),
    Field("rate_z", U16),
    Field("sun_angle", U16),
])

THERMAL = Layout("thermal", [
    Field("panel_c", U8),
    Field("battery_c", U8),
    Field("payload_c", U8),
    Field("heater_on", U8),
])

BODIES = {0x10: ("power", POWER), 0x20: ("attitude", ATTITUDE), 0x30: ("thermal", THERMAL)}
APIDS = {name: apid for apid, (name, _) in BODIES.items()}

# engineering value = raw * scale
SCALES = {
    "power": {"bus_mv": 1, "battery_mv": 1, "solar_ma": 1, "mode": 1},
    "attitude": {"rate_x": 0.01, "rate_y": 0.01, "rate_z": 0.01, "sun_angle": 0.01},
    "thermal": {"panel_c": 1, "battery_c": 1, "payload_c": 1, "heater_on": 1},
}


def body_layout(apid):
    try:
        return BODIES[apid]
    except KeyError:
        raise KeyError(f"unknown APID 0x{apid:02x}") from None
