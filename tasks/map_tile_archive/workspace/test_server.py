import pytest

from archive import ArchiveClosed, TileArchive
from server import TileServer
from tileformat import FormatError, write_archive

TILES = {
    (0, 0, 0): b"world",
    (1, 0, 0): b"nw",
    (1, 1, 0): b"ne",
    (1, 0, 1): b"sw",
    (1, 1, 1): b"se",
    (2, 3, 1): b"harbour",
}


@pytest.fixture
def archive(tmp_path):
    write_archive(tmp_path / "city.tiles", TILES)
    with TileArchive(tmp_path / "city.tiles") as opened:
        yield opened


def test_archive_reads_back_every_tile(archive):
    assert {key: archive.read_tile(*key) for key in archive.keys()} == TILES


def test_server_serves_tiles_by_path(archive):
    server = TileServer(archive)
    assert server.get("/1/1/0.png") == (200, b"ne")
    assert server.get("/4/0/0.png") == (404, b"")
    assert server.get("/1/x/0.png")[0] == 400


def test_view_is_limited_to_its_zoom_level(archive):
    view = archive.view(1)
    assert view.count() == 4
    assert view.read_tile(1, 0, 1) == b"sw"
    with pytest.raises(KeyError):
        view.read_tile(2, 3, 1)


def test_coverage_counts_tiles_per_zoom(archive):
    assert TileServer(archive).coverage([0, 1, 2, 3]) == {0: 1, 1: 4, 2: 1, 3: 0}


def test_tiles_still_served_after_status_page(archive):
    server = TileServer(archive)
    server.coverage([0, 1])
    assert server.get("/2/3/1.png") == (200, b"harbour")


def test_archive_readable_after_listing_a_zoom_level(archive):
    assert archive.view(2).keys() == [(2, 3, 1)]
    assert archive.read_tile(0, 0, 0) == b"world"


def test_closed_archive_refuses_reads(tmp_path):
    write_archive(tmp_path / "a.tiles", TILES)
    archive = TileArchive(tmp_path / "a.tiles")
    archive.close()
    with pytest.raises(ArchiveClosed):
        archive.read_tile(0, 0, 0)


def test_other_files_are_rejected(tmp_path):
    (tmp_path / "notes.txt").write_bytes(b"hello world, not tiles")
    with pytest.raises(FormatError):
        TileArchive(tmp_path / "notes.txt")
