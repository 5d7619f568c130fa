import pytest

from adjuster import Adjuster, settle_batch
from claims import Claim
from policies import Policy, Rider

HOME = Policy("H-100", deductible=50_000, limits={"contents": 200_000})
FLOOD_EXCLUDED = Policy("H-200", deductible=25_000, riders=(Rider("NOFLOOD", excluded_causes=("flood",)),))
COPAY = Policy("H-300", deductible=0, riders=(Rider("CO20", copay_percent=20),))


def claim(cid, policy, cause="fire", **amounts):
    c = Claim(cid, policy.number, cause=cause)
    for category, amount in amounts.items():
        c.add(category, category, amount)
    return c


def test_limits_then_deductible():
    s = Adjuster(HOME).settle(claim("c1", HOME, contents=350_000, structure=100_000))
    # contents capped at 200,000; plus 100,000 structure; minus 50,000 deductible
    assert s.payable == 250_000
    assert s.trace == ["category-limits", "deductible", "zero-floor"]


def test_small_claim_pays_nothing():
    assert Adjuster(HOME).settle(claim("c2", HOME, contents=30_000)).payable == 0


def test_wrong_policy_is_refused():
    with pytest.raises(ValueError):
        Adjuster(HOME).settle(claim("c3", COPAY, contents=1))


def test_flood_exclusion_rider():
    s = Adjuster(FLOOD_EXCLUDED).settle(claim("c4", FLOOD_EXCLUDED, cause="flood", water=80_000))
    assert s.payable == 0
    assert s.trace == ["NOFLOOD:exclusion"]


def test_copay_rider_applies_once():
    first = Adjuster(COPAY).settle(claim("c5", COPAY, vehicle=100_000))
    again = Adjuster(COPAY).settle(claim("c6", COPAY, vehicle=100_000))
    assert first.payable == 80_000
    assert again.payable == 80_000, f"second adjuster paid {again.payable}"


def test_riders_stay_with_their_policy():
    Adjuster(FLOOD_EXCLUDED)
    s = Adjuster(HOME).settle(claim("c7", HOME, cause="flood", water=90_000))
    assert s.payable == 40_000
    assert "NOFLOOD:exclusion" not in s.trace


def test_batch_mixes_policies():
    policies = {p.number: p for p in (HOME, FLOOD_EXCLUDED, COPAY)}
    claims = [
        claim("b1", COPAY, vehicle=50_000),
        claim("b2", HOME, cause="flood", contents=60_000),
        claim("b3", FLOOD_EXCLUDED, cause="flood", water=10_000),
        claim("b4", HOME, contents=70_000),
    ]
    assert [s.payable for s in settle_batch(policies, claims)] == [40_000, 10_000, 0, 20_000]
