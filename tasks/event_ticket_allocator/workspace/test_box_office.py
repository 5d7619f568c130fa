import pytest

from allocation import TicketPool
from box_office import BoxOffice
from tiers import Tier, tier_table


@pytest.fixture
def office():
    pool = TicketPool(tier_table(Tier("VIP", 4, max_per_order=2), Tier("GA", 100)), lock_timeout=0.5)
    return BoxOffice(pool)


def test_order_confirms_and_counts_down(office):
    result = office.order("kim", "GA", 3)
    assert result.ok and result.message.endswith("97 left")
    assert office.confirmed == [("kim", "GA", 3)]


def test_order_above_per_order_limit_is_declined(office):
    assert not office.order("kim", "VIP", 3).ok
    assert office.order("lee", "VIP", 2).ok


def test_refund_returns_tickets(office):
    office.order("kim", "VIP", 2)
    office.refund("kim", "VIP", 2)
    assert office._pool.remaining("VIP") == 4
    assert office.confirmed == []


def test_sold_out_tier_declines_politely(office):
    assert office.order("kim", "VIP", 2).ok
    assert office.order("lee", "VIP", 2).ok
    result = office.order("max", "VIP", 1)
    assert not result.ok
    assert result.message == "sorry max: only 0 VIP tickets left"


def test_box_office_keeps_selling_after_a_declined_order(office):
    office.order("kim", "VIP", 2)
    office.order("lee", "VIP", 2)
    assert not office.order("max", "VIP", 1).ok
    assert office.order("max", "GA", 2).ok


def test_remaining_after_a_declined_order(office):
    for customer in ("kim", "lee", "max"):
        office.order(customer, "VIP", 2)
    assert office._pool.remaining("VIP") == 0
