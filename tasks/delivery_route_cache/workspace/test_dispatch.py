import pytest

from dispatch import Dispatcher
from plan_cache import PlanCache
from routing import order_stops

DEPOT = (52.5200, 13.4050)
STOPS = [(52.5310, 13.3847), (52.5163, 13.3777), (52.5079, 13.3900), (52.5250, 13.4100)]


def test_order_starts_with_nearest_stop():
    ordered = order_stops(DEPOT, STOPS)
    assert ordered[0] == (52.5250, 13.4100)
    assert sorted(ordered) == sorted(STOPS)


def test_first_assignment_sends_every_stop(tmp_path):
    dispatcher = Dispatcher(PlanCache(tmp_path))
    update = dispatcher.assign("van-7", DEPOT, STOPS)
    assert len(update.added) == 4 and update.removed == []
    assert len(dispatcher.outbox) == 1


def test_same_stops_again_sends_nothing(tmp_path):
    dispatcher = Dispatcher(PlanCache(tmp_path))
    dispatcher.assign("van-7", DEPOT, STOPS)
    update = dispatcher.assign("van-7", DEPOT, list(reversed(STOPS)))
    assert update.unchanged
    assert len(dispatcher.outbox) == 1


def test_restarted_dispatcher_sends_nothing_for_same_stops(tmp_path):
    Dispatcher(PlanCache(tmp_path)).assign("van-7", DEPOT, STOPS)
    restarted = Dispatcher(PlanCache(tmp_path))
    update = restarted.assign("van-7", DEPOT, STOPS)
    assert restarted.outbox == [], f"driver was re-sent {len(update.added)} stops"


def test_restarted_dispatcher_reports_only_the_new_stop(tmp_path):
    Dispatcher(PlanCache(tmp_path)).assign("van-7", DEPOT, STOPS)
    restarted = Dispatcher(PlanCache(tmp_path))
    extra = (52.5400, 13.4200)
    update = restarted.assign("van-7", DEPOT, STOPS + [extra])
    assert update.added == [extra]
    assert update.removed == []


def test_cache_lists_drivers_from_disk(tmp_path):
    Dispatcher(PlanCache(tmp_path)).assign("van-7", DEPOT, STOPS)
    Dispatcher(PlanCache(tmp_path)).assign("bike-2", DEPOT, STOPS[:2])
    assert PlanCache(tmp_path).drivers() == ["bike-2", "van-7"]
