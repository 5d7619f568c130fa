import json

import pytest

from feature_flags import FeatureFlags, UnknownFlag
from flag_source import FlagDocumentError, FlagSource
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
