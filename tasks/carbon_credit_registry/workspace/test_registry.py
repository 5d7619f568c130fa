import threading

import pytest

from registry import InsufficientCredits, Registry, make_batches
from vintages import RegistryError


def registry(*accounts):
    reg = Registry()
    for a in accounts:
        reg.open_account(a)
    return reg


def test_issue_and_retire_oldest_first():
    reg = registry("acme")
    reg.issue("acme", make_batches("P1", 2021, "VCS", 1, 3))
    reg.issue("acme", make_batches("P2", 2019, "GS", 10, 2))
    assert reg.retire("acme", 3, "Acme Corp 2025") == ["CC-000010", "CC-000011", "CC-000001"]
    assert reg.balance("acme") == 2
    assert reg.ledger.retired_total("acme") == 3


def test_vintage_filter():
    reg = registry("acme")
    reg.issue("acme", make_batches("P1", 2018, "VCS", 1, 4))
    reg.issue("acme", make_batches("P1", 2023, "VCS", 5, 2))
    assert reg.balance("acme", min_vintage=2020) == 2
    with pytest.raises(InsufficientCredits):
        reg.retire("acme", 3, "x", min_vintage=2020, timeout=0.05)


def test_statement():
    reg = registry("a", "b")
    reg.issue("a", make_batches("P", 2022, "CAR", 1, 5))
    reg.transfer("a", "b", 2)
    assert reg.ledger.statement("a") == ["0001 issue             5       5", "0002 transfer_out      2       3 to b"]


def test_bad_batches_are_rejected():
    with pytest.raises(RegistryError):
        make_batches("P", 1990, "VCS", 1, 1)
    with pytest.raises(RegistryError):
        make_batches("P", 2020, "XYZ", 1, 1)


def run(target, *args):
    out = {}

    def body():
        try:
            out["value"] = target(*args)
        except Exception as exc:
            out["error"] = exc

    t = threading.Thread(target=body, daemon=True)
    t.start()
    return t, out


def test_retire_waits_for_its_own_account():
    reg = registry("acme", "other")
    t, out = run(lambda: reg.retire("acme", 2, "Acme", timeout=3))
    reg.issue("other", make_batches("P9", 2022, "GS", 100, 5))
    assert reg.wait_for_wakeups(1)
    reg.issue("acme", make_batches("P1", 2022, "VCS", 1, 2))
    t.join(timeout=4)
    assert not t.is_alive(), "retire hung"
    assert out == {"value": ["CC-000001", "CC-000002"]}


def test_transfer_waits_through_unrelated_issuance():
    reg = registry("broker", "buyer", "noise")
    t, out = run(lambda: reg.transfer("broker", "buyer", 3, timeout=3))
    reg.issue("noise", make_batches("N", 2022, "GS", 500, 1))
    assert reg.wait_for_wakeups(1)
    reg.issue("noise", make_batches("N", 2022, "GS", 501, 1))
    assert reg.wait_for_wakeups(2)
    reg.issue("broker", make_batches("B", 2024, "VCS", 1, 3))
    t.join(timeout=4)
    assert not t.is_alive(), "transfer hung"
    assert "error" not in out, out
    assert reg.balance("buyer") == 3


def test_waiting_retire_times_out():
    reg = registry("acme")
    with pytest.raises(InsufficientCredits):
        reg.retire("acme", 1, "x", timeout=0.1)


def test_marketplace_trade():
    from marketplace import Marketplace

    reg = registry("farm", "airline")
    reg.issue("farm", make_batches("SOIL", 2023, "GS", 1, 10))
    market = Marketplace(reg)
    market.list_credits("L1", "farm", 6, 12.5)
    assert len(market.buy("L1", "airline", 4)) == 4
    assert market.listings["L1"].open_tonnes == 2
    assert market.seller_proceeds("farm") == 49.0
    with pytest.raises(RegistryError):
        market.buy("L1", "airline", 3)


def test_marketplace_buy_waits_for_seller_issuance():
    from marketplace import Marketplace

    reg = registry("farm", "airline", "forest")
    reg.issue("farm", make_batches("SOIL", 2023, "GS", 1, 2))
    market = Marketplace(reg)
    market.list_credits("L2", "farm", 2, 10.0)
    reg.retire("farm", 2, "own use")
    t, out = run(lambda: market.buy("L2", "airline", 2, timeout=3))
    reg.issue("forest", make_batches("TREE", 2024, "VCS", 50, 2))
    assert reg.wait_for_wakeups(1)
    reg.issue("farm", make_batches("SOIL", 2024, "GS", 3, 2))
    t.join(timeout=4)
    assert not t.is_alive(), "buy hung"
    assert out.get("value") == ["CC-000003", "CC-000004"]
    assert market.volume() == 2


def test_ledger_totals():
    from vintages import describe

    reg = registry("a", "b")
    batches = make_batches("P", 2021, "VCS", 1, 3) + make_batches("P", 2022, "VCS", 4, 1)
    assert describe(batches) == "2021: 3 t, 2022: 1 t"
    reg.issue("a", batches)
    reg.transfer("a", "b", 1)
    reg.retire("b", 1, "b corp")
    assert reg.ledger.totals_by_kind() == {"issue": 4, "retire": 1, "transfer_in": 1, "transfer_out": 1}
    assert reg.ledger.accounts() == ["a", "b"]
