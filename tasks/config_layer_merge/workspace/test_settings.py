import pytest

from defaults import DEFAULTS
from env import EnvError, env_layer
from layering import diff, flatten, merge
from settings import UnknownProfile, load


def test_profile_values_win_over_defaults():
    prod = load("prod")
    assert prod.get("database.host") == "db.prod.internal"
    assert prod.get("database.pool.size") == 40
    assert prod.get("database.port") == 5432
    assert prod.get("service.name") == "orders"


def test_environment_wins_over_profile():
    s = load("staging", {"APP__DATABASE__POOL__SIZE": "12", "APP__LOGGING__JSON": "yes", "HOME": "/root"})
    assert s.get("database.pool.size") == 12
    assert s.get("logging.json") is True
    assert s.get("database.host") == "db.staging.internal"


def test_env_layer_parses_nested_names_and_types():
    assert env_layer({"APP__A__B": "1.5", "APP__C": "off", "APP__D": "x"}) == {"a": {"b": 1.5}, "c": False, "d": "x"}
    with pytest.raises(EnvError):
        env_layer({"APP__A____B": "1"})


def test_flatten_and_diff():
    assert flatten({"a": {"b": 1, "c": {"d": 2}}, "e": 3}) == {"a.b": 1, "a.c.d": 2, "e": 3}
    assert diff({"a": {"b": 1}}, {"a": {"b": 2}, "c": 1}) == {"a.b": (1, 2), "c": (diff.__globals__["MISSING"], 1)}


def test_unknown_profile():
    with pytest.raises(UnknownProfile):
        load("qa")


def test_profiles_do_not_see_each_other():
    load("prod")
    staging = load("staging")
    assert staging.get("database.pool.size") == 5
    assert staging.get("database.options.sslmode") == "prefer"
    assert DEFAULTS["database"]["pool"] == {"size": 5, "timeout_s": 10}


def test_environment_override_does_not_outlive_its_load():
    load("prod", {"APP__FEATURES__BETA_REPORTS": "true"})
    assert load("prod").get("features.beta_reports") is False


def test_with_overrides_leaves_the_original_settings():
    dev = load("dev")
    tuned = dev.with_overrides({"database": {"pool": {"size": 9}}, "logging": {"level": "WARN"}})
    assert tuned.get("database.pool.size") == 9
    assert dev.get("database.pool.size") == 2
    assert dev.get("logging.level") == "DEBUG"


def test_changes_from_defaults_lists_only_the_profile():
    changes = load("dev").changes_from_defaults()
    assert changes == {"database.pool.size": (5, 2), "logging.level": ("INFO", "DEBUG")}


def test_merge_returns_combined_tree():
    assert merge({"a": {"b": 1}}, {"a": {"c": 2}}) == {"a": {"b": 1, "c": 2}}


def test_bad_environment_values_are_refused():
    from checks import ConfigError

    with pytest.raises(ConfigError) as err:
        load("staging", {"APP__SERVICE__PORT": "99999", "APP__LOGGING__LEVEL": "LOUD"})
    assert [p.split(":")[0] for p in err.value.problems] == ["service.port", "logging.level"]
