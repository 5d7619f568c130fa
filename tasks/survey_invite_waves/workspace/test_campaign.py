import pytest

from campaign import Campaign
from sampling import AuditSampler
from tokens import looks_like_token


def run_wave(campaign, emails):
    invites = campaign.invite(emails)
    for inv in invites:
        campaign.respond(inv.token, {"nps": 9})
    campaign.close_wave()
    return invites


def test_invites_get_well_formed_distinct_tokens():
    invites = Campaign(AuditSampler(seed=7, size=2)).invite([f"user{i}@example.com" for i in range(50)])
    tokens = [inv.token for inv in invites]
    assert all(looks_like_token(t) for t in tokens)
    assert len(set(tokens)) == 50


def test_audit_sample_can_be_redrawn():
    sampler = AuditSampler(seed=11, size=3)
    ids = [f"r{i}" for i in range(20)]
    first = sampler.draw(ids)
    assert len(first) == 3
    assert sampler.draw(list(reversed(ids))) == first


def test_unknown_token_is_rejected():
    with pytest.raises(KeyError):
        Campaign(AuditSampler(seed=1, size=1)).respond("NOPE000000", {})


def test_each_wave_is_audited():
    campaign = Campaign(AuditSampler(seed=3, size=2))
    first = run_wave(campaign, ["a@example.com", "b@example.com", "c@example.com"])
    assert len(campaign.audits[1]) == 2
    assert set(campaign.audits[1]) <= {inv.token for inv in first}


def test_later_waves_keep_earlier_invites():
    campaign = Campaign(AuditSampler(seed=3, size=2))
    waves = [["a@example.com", "b@example.com"], ["c@example.com", "d@example.com"], ["e@example.com", "f@example.com"]]
    sent = [run_wave(campaign, emails) for emails in waves]
    assert len(campaign.invites) == 6, f"{len(campaign.invites)} invites on record after 3 waves of 2"
    c_token = sent[1][0].token
    assert campaign.invites[c_token].email == "c@example.com", f"token {c_token} now belongs to {campaign.invites[c_token].email}"
