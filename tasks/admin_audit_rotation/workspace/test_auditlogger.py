import json

from auditlogger import AuditLogger
from rotation import RotatingFile


def make_logger(tmp_path, max_bytes=10_000, backups=3):
    sink = RotatingFile(tmp_path / "audit.log", max_bytes=max_bytes, backups=backups)
    return sink, AuditLogger(sink, clock=lambda: 1_700_000_000)


def lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_entries_are_json_lines_with_timestamp(tmp_path):
    _, logger = make_logger(tmp_path)
    logger.log("ana", "user.disable", target="ben")
    logger.close()
    assert lines(tmp_path / "audit.log") == [
        {"at": "2023-11-14T22:13:20+00:00", "actor": "ana", "action": "user.disable", "target": "ben"}
    ]


def test_logging_continues_across_a_rotation(tmp_path):
    sink, logger = make_logger(tmp_path, max_bytes=200)
    for n in range(4):
        logger.log("ana", "invoice.void", invoice=n)
    logger.close()
    assert sink.rotations == 1
    live = [entry["invoice"] for entry in lines(tmp_path / "audit.log")]
    backup = [entry["invoice"] for entry in lines(tmp_path / "audit.log.1")]
    assert backup + live == [0, 1, 2, 3]


def test_old_backups_are_dropped(tmp_path):
    sink, logger = make_logger(tmp_path, max_bytes=1, backups=2)
    for n in range(5):
        logger.log("ana", "invoice.void", invoice=n)
    logger.close()
    assert sink.rotations == 5
    assert sorted(p.name for p in tmp_path.iterdir()) == ["audit.log", "audit.log.1", "audit.log.2"]
    assert [entry["invoice"] for entry in lines(tmp_path / "audit.log.1")] == [4]


def test_reopening_appends_to_existing_log(tmp_path):
    _, first = make_logger(tmp_path)
    first.log("ana", "login")
    first.close()
    _, second = make_logger(tmp_path)
    second.log("ben", "login")
    second.close()
    assert [entry["actor"] for entry in lines(tmp_path / "audit.log")] == ["ana", "ben"]


def test_quiet_day_never_rotates(tmp_path):
    sink, logger = make_logger(tmp_path)
    for n in range(20):
        logger.log("ana", "page.view", page=n)
    logger.close()
    assert sink.rotations == 0
    assert logger.entries_written == 20
