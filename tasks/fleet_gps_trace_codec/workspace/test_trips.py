from archive import archive_day, decode_trip, encode_trip, load_day
from polyline import decode_deltas, encode_deltas
from traces import Fix, max_speed_kmh, trip_distance_m
from vendor.tinypack import pack, unpack

# a van leaving the depot heading south-west, then back north-east
TRIP = [
    Fix(0, 51.50740, -0.12780),
    Fix(30, 51.50612, -0.13005),
    Fix(60, 51.50401, -0.13377),
    Fix(90, 51.50455, -0.13290),
    Fix(120, 51.50690, -0.12910),
]


def test_tinypack_round_trip():
    value = {"a": [1, -2, 3.5, None, True], "b": b"\x00\xff", "c": "vän"}
    assert unpack(pack(value)) == value


def test_deltas_round_trip_going_up():
    rows = [(0, 10, 20), (5, 15, 27), (9, 300, 9000)]
    assert decode_deltas(encode_deltas(rows), 3) == rows


def test_deltas_round_trip_going_down():
    rows = [(0, 500, 500), (1, 499, 380), (2, -20, -7000)]
    assert decode_deltas(encode_deltas(rows), 3) == rows


def test_trip_round_trip():
    van, driver, fixes = decode_trip(encode_trip("VAN-12", "ola", TRIP))
    assert (van, driver) == ("VAN-12", "ola")
    assert fixes == TRIP


def test_distance_survives_archiving():
    (_, _, fixes), = load_day(archive_day([("VAN-12", "ola", TRIP)]))
    assert trip_distance_m(fixes) == trip_distance_m(TRIP) == 1015
    assert max_speed_kmh(fixes) == max_speed_kmh(TRIP)


def test_small_moves_take_few_bytes():
    blob = encode_trip("V", "d", TRIP)
    assert len(blob) < 80
