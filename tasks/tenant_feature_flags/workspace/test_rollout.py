import json

import pytest

from audit import ChangeLog, differences
from bucketing import RolloutError, in_rollout, share_in
from feature_flags import FeatureFlags, UnknownFlag
from flag_source import FlagDocumentError, FlagSource
from frontend_config import as_env, as_script
from plans import PlanViolation, allowed_overrides, check_override, upgrade_needed
from rollout import enabled_tenants, rollout_share

DOC = {
    "defaults": {"new_checkout": False, "dark_mode": True, "bulk_export": False},
    "tenants": {
        "acme": {"new_checkout": True},
        "initech": {"dark_mode": False, "bulk_export": True},
    },
}


@pytest.fixture
def flags(tmp_path):
    path = tmp_path / "flags.json"
    path.write_text(json.dumps(DOC))
    return FeatureFlags(FlagSource(path))


def test_tenant_override_wins_over_default(flags):
    assert flags.for_tenant("acme") == {"new_checkout": True, "dark_mode": True, "bulk_export": False}


def test_override_of_unknown_flag_is_rejected(tmp_path):
    path = tmp_path / "flags.json"
    path.write_text(json.dumps({"defaults": {"a": True}, "tenants": {"acme": {"b": True}}}))
    with pytest.raises(UnknownFlag):
        FeatureFlags(FlagSource(path)).for_tenant("acme")


def test_non_boolean_default_is_rejected(tmp_path):
    path = tmp_path / "flags.json"
    path.write_text(json.dumps({"defaults": {"a": "yes"}}))
    with pytest.raises(FlagDocumentError, match="true or false"):
        FlagSource(path).defaults()


def test_reload_picks_up_edited_defaults(tmp_path):
    path = tmp_path / "flags.json"
    path.write_text(json.dumps({"defaults": {"a": False}}))
    source = FlagSource(path)
    assert source.defaults() == {"a": False}
    path.write_text(json.dumps({"defaults": {"a": True}}))
    source.reload()
    assert source.defaults() == {"a": True}


def test_rollout_reaches_only_opted_in_tenants(flags):
    tenants = ["acme", "globex", "initech", "umbrella"]
    assert enabled_tenants(flags, tenants, "new_checkout") == ["acme"], "new_checkout rollout"
    assert rollout_share(flags, tenants, "bulk_export") == 0.25


def test_tenant_without_overrides_sees_the_defaults(flags):
    flags.for_tenant("initech")
    globex = flags.for_tenant("globex")
    assert globex == DOC["defaults"], f"globex flags {globex}"


def test_percentage_rollout_is_stable_and_monotonic():
    users = [f"user-{n}" for n in range(2000)]
    assert 0.22 < share_in("new_checkout", users, 25) < 0.28
    in_at_10 = {u for u in users if in_rollout("new_checkout", u, 10)}
    in_at_50 = {u for u in users if in_rollout("new_checkout", u, 50)}
    assert in_at_10 <= in_at_50
    with pytest.raises(RolloutError):
        in_rollout("new_checkout", "user-1", 120)


def test_support_view_and_change_log(flags, tmp_path):
    assert differences(DOC["defaults"], flags.for_tenant("initech")) == {"bulk_export": (False, True), "dark_mode": (True, False)}
    log = ChangeLog(tmp_path / "changes.jsonl", clock=lambda: 1700000000.0)
    log.record("ops-ana", "globex", "dark_mode", False)
    log.record("ops-ben", "acme", "bulk_export", True)
    assert [e["who"] for e in log.history("globex")] == ["ops-ana"]
    edited = log.apply_to(DOC)
    assert edited["tenants"]["globex"] == {"dark_mode": False} and "globex" not in DOC["tenants"]
    with pytest.raises(ValueError):
        log.record("ops-ana", "acme", "dark_mode", "off")


def test_frontend_sees_public_flags_only(flags):
    acme = flags.for_tenant("acme")
    assert as_script("acme", acme) == 'window.__FLAGS__ = {"flags": {"dark_mode": true, "new_checkout": true}, "tenant": "acme"};'
    assert as_env(acme) == {"APP_FLAG_DARK_MODE": "1", "APP_FLAG_NEW_CHECKOUT": "1"}


def test_plans_limit_overrides():
    assert check_override("team", "new_checkout", True)
    with pytest.raises(PlanViolation):
        check_override("free", "bulk_export", True)
    assert allowed_overrides("free", {"bulk_export": True, "new_checkout": False}) == {"new_checkout": False}
    assert upgrade_needed("free", ["new_checkout"]) == "team"
    assert upgrade_needed("enterprise", ["bulk_export"]) is None
