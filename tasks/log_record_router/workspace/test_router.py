import pytest

from levels import normalize
from records import LogRecord, parse_line
from router import Router, Sink


def rec(level, service="api"):
    return LogRecord(service=service, level=normalize(level), message="m")


def test_aliases_and_case_are_normalised():
    assert normalize("warn") == "WARNING"
    with pytest.raises(ValueError, match="unknown log level"):
        normalize("loud")


def test_parse_line_keeps_extra_fields():
    r = parse_line('{"service": "api", "level": "err", "msg": "boom", "code": 502}')
    assert (r.level, r.fields) == ("ERROR", {"code": 502})


def test_debug_is_dropped_below_info_sink():
    router = Router([Sink("console", "INFO")])
    assert router.route(rec("debug")) == []
    assert router.dropped == 1


def test_pager_sink_receives_errors_and_worse():
    pager = Sink("pager", "ERROR")
    router = Router([pager])
    for level in ("warning", "error", "critical"):
        router.route(rec(level))
    assert [r.level for r in pager.received] == ["ERROR", "CRITICAL"]


def test_warning_sink_keeps_everything_from_warning_up():
    router = Router([Sink("file", "WARNING")])
    routed = {level: router.route(rec(level)) for level in ("info", "warning", "error", "fatal")}
    assert routed == {"info": [], "warning": ["file"], "error": ["file"], "fatal": ["file"]}


def test_service_filter():
    router = Router([Sink("billing-log", "DEBUG", services=frozenset({"billing"}))])
    router.route_lines(['{"service": "billing", "level": "info", "msg": "ok"}', "", '{"service": "api", "level": "info", "msg": "ok"}'])
    assert router.dropped == 1
