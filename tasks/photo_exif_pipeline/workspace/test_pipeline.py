from datetime import datetime

import pytest

from catalog import Catalog
from exif import ExifError, format_record, parse_record
from pipeline import import_file
from readers import count_lines, read_header

TRIP = """# camera-sync: v2
# card: A
DSC001.JPG|X-T5|2026:05:01 10:22:03|200|23|48.85,2.35
DSC002.JPG|X-T5|2026:05:01 11:02:50|800|56
IMG_9.HEIC|iPhone 15|2026:05:01 09:15:00|50|6.8|48.86,2.34
"""

DAY2 = """DSC010.JPG|X-T5|2026:05:02 08:00:00|400|90|48.80,2.20
"""


@pytest.fixture
def card(tmp_path):
    (tmp_path / "a.exif").write_text(TRIP, encoding="utf-8")
    (tmp_path / "b.exif").write_text(DAY2, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a sidecar", encoding="utf-8")
    return tmp_path


def test_record_round_trip():
    line = "DSC001.JPG|X-T5|2026:05:01 10:22:03|200|23|48.85,2.35"
    meta = parse_record(line)
    assert meta.taken == datetime(2026, 5, 1, 10, 22, 3)
    assert format_record(meta) == line


def test_bad_records():
    with pytest.raises(ExifError):
        parse_record("x.jpg|cam|yesterday|100|50")
    with pytest.raises(ExifError):
        parse_record("x.jpg|cam|2026:05:01 10:00:00|100|50|91,0")


def test_header_and_line_count(card):
    assert read_header(card / "a.exif") == {"camera-sync": "v2", "card": "A"}
    assert count_lines(card / "a.exif") == 3


def test_import_one_file(card):
    photos = import_file(card / "a.exif")
    assert [p.filename for p in photos] == ["DSC001.JPG", "DSC002.JPG", "IMG_9.HEIC"]


def test_import_one_camera(card):
    assert [p.filename for p in import_file(card / "a.exif", camera="iPhone 15")] == ["IMG_9.HEIC"]


def test_catalog_ingests_a_card(card):
    cat = Catalog()
    assert cat.ingest(card) == 4
    assert cat.ingest(card) == 0
    assert cat.report() == {
        "photos": 4,
        "cameras": ["X-T5", "iPhone 15"],
        "untagged": ["DSC002.JPG"],
        "lenses": {"normal": 1, "tele": 1, "wide": 2},
    }
    assert cat.days() == ["2026-05-01", "2026-05-02"]


def test_rename_plan_is_chronological(card):
    cat = Catalog()
    cat.ingest(card, camera="X-T5")
    assert cat.plan("PARIS") == [
        ("DSC001.JPG", "PARIS_20260501_0001.jpg"),
        ("DSC002.JPG", "PARIS_20260501_0002.jpg"),
        ("DSC010.JPG", "PARIS_20260502_0003.jpg"),
    ]


def test_geotag_from_a_track(card, tmp_path):
    track = tmp_path / "track.csv"
    track.write_text("time,lat,lon\n2026-05-01T11:00:00,48.87,2.30\n2026-05-01T12:00:00,48.88,2.31\n")
    cat = Catalog()
    cat.ingest(card)
    assert cat.geotag(track) == ["DSC002.JPG"]
    assert cat.photos["DSC002.JPG"].gps == (48.87, 2.30)
    assert cat.report()["untagged"] == []
