from datetime import date

import pytest

from addresses import AddressError, domain_counts, normalise, recipients
from campaign import Campaign
from export import response_rate, responses_csv
from reminders import due_reminders, render
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


def test_uploaded_lists_are_cleaned():
    good, bad = recipients("Ana@Example.com\n\nana@example.com\nnot-an-address\nb.o.b+news@gmail.com\ncai@example.org", opted_out=["CAI@example.org"])
    assert good == ["ana@example.com", "bob@gmail.com"] and bad == ["not-an-address"]
    with pytest.raises(AddressError):
        normalise("@example.com")
    assert domain_counts(good + ["dee@gmail.com"]) == [("gmail.com", 2), ("example.com", 1)]


def test_reminders_and_export_for_one_wave():
    campaign = Campaign(AuditSampler(seed=5, size=1))
    invites = campaign.invite(["a@example.com", "b@example.com", "c@example.com"])
    campaign.respond(invites[1].token, {"nps": 7, "comment": "ok"})
    due = due_reminders(campaign, 1, date(2024, 6, 3), date(2024, 6, 10))
    assert len(due) == 4 and {r.email for r in due} == {"a@example.com", "c@example.com"}
    first = [(r.token, r.nth) for r in due if r.nth == 1]
    assert len(due_reminders(campaign, 1, date(2024, 6, 3), date(2024, 6, 10), already_sent=first)) == 2
    assert response_rate(campaign, 1) == 1 / 3
    subject, body = render(due[-1], "https://survey.example/", "Our service")
    assert subject.startswith("Last reminder") and f"https://survey.example/s/{due[-1].token}" in body
    assert responses_csv(campaign, ["nps", "comment"]) == f"wave,token,nps,comment\n1,{invites[1].token},7,ok\n"
