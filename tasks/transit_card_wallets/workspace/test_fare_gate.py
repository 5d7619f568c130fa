import threading

import pytest

from fare_gate import FareGate, FareTable, TapResult
from journeys import JourneyLog
from wallets import UnknownCard, WalletBook


@pytest.fixture
def wallets():
    book = WalletBook()
    book.open_card("TC-00000001", 300)
    return book


def test_tap_charges_fare(wallets):
    gate = FareGate(wallets, FareTable({"zone1": 250}))
    assert gate.tap("TC-00000001", "zone1") == TapResult(True, 250, 50)
    assert wallets.balance("TC-00000001") == 50


def test_tap_without_enough_balance_is_refused(wallets):
    journeys = JourneyLog()
    gate = FareGate(wallets, FareTable({"airport": 900, "zone1": 250}), journeys)
    result = gate.tap("TC-00000001", "airport")
    assert not result.allowed and result.balance == 300
    gate.tap("TC-00000001", "zone1")
    assert [(j.route, j.allowed) for j in journeys.history("TC-00000001")] == [("airport", False), ("zone1", True)]
    assert journeys.total_spent("TC-00000001") == 250


def test_top_up_and_bad_input(wallets):
    wallets.top_up("TC-00000001", 200)
    assert wallets.balance("TC-00000001") == 500
    with pytest.raises(ValueError):
        wallets.open_card("12345678")
    with pytest.raises(UnknownCard):
        FareGate(wallets, FareTable({"zone1": 250})).tap("TC-99999999", "zone1")


class SlowFareTable(FareTable):
    """Fare lookup over the network: two gates looking up at once meet here."""

    def __init__(self, fares, meeting):
        super().__init__(fares)
        self.meeting = meeting

    def fare(self, route):
        try:
            self.meeting.wait()
        except threading.BrokenBarrierError:
            pass
        return super().fare(route)


def test_two_gates_cannot_spend_the_same_balance(wallets):
    gate = FareGate(wallets, SlowFareTable({"zone1": 250}, threading.Barrier(2, timeout=1)))
    results = []
    threads = [
        threading.Thread(target=lambda: results.append(gate.tap("TC-00000001", "zone1")), daemon=True)
        for _ in range(2)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(3)
    assert not any(t.is_alive() for t in threads)
    allowed = [r for r in results if r.allowed]
    assert len(allowed) == 1, f"{len(allowed)} rides allowed on a 300c balance at 250c each"
    assert wallets.balance("TC-00000001") == 50
