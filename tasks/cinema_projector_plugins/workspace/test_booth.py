import pytest

from booth import Douser, Lamp
from maintenance import checklist, lamp_life
from plugins import Host, Plugin, PluginError
from screenings import build_booth, lamp_report, run_day


def test_start_order_respects_needs():
    host = build_booth()
    order = host.start_order()
    assert order.index("lamp") < order.index("douser") < order.index("show")
    assert order.index("audio") < order.index("subtitles") < order.index("show")


def test_cycle_is_refused():
    class A(Plugin):
        name, needs = "a", ("b",)

    class B(Plugin):
        name, needs = "b", ("a",)

    host = Host()
    host.add(A())
    host.add(B())
    with pytest.raises(PluginError, match="cycle"):
        host.start_order()


def test_douser_needs_the_lamp():
    host = Host()
    host.add(Lamp())
    douser = host.add(Douser())
    with pytest.raises(PluginError):
        douser.set_open(True)


def test_day_of_screenings_shuts_down_cleanly():
    host = build_booth()
    errors = run_day(host, [("Matinee", 95, "5.1", None), ("Evening", 130, "7.1", "en-SDH")])
    assert errors == []
    assert not any(host.get(n).running for n in ("lamp", "douser", "audio", "subtitles", "show"))
    assert host.get("douser").open is False


def test_shutdown_log_is_the_reverse_of_startup():
    log = []
    host = build_booth(log)
    run_day(host, [("Late show", 100, "stereo", "fr")])
    starts = [line[6:] for line in log if line.startswith("start")]
    stops = [line[5:] for line in log if line.startswith("stop")]
    assert stops == starts[::-1]
    assert host.get("subtitles").cues_shown == 1


def test_lamp_hours():
    host = build_booth()
    run_day(host, [("A", 90, "5.1", None), ("B", 120, "5.1", None)])
    run_day(host, [("C", 30, "stereo", None)])
    assert lamp_report(host) == "lamp: 4.0 h over 2 strikes"


def test_lamp_life_and_checklist():
    host = build_booth()
    host.start_all()
    host.get("audio").select("5.1")
    assert all(checklist(host).values())
    host.get("lamp").hours = 1850
    assert lamp_life(host) == (1850.0, 92.5, "order a spare")
    host.stop_all()
    assert checklist(host)["all plugins running"] is False
