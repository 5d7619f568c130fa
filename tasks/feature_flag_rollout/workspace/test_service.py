import pytest

import flags
from config import ConfigError, parse
from service import Storefront
from vendor.flagwire import StaticTransport, bucket

RULES = [
    {"key": "new_checkout", "rollout_pct": 100, "attributes": {"region": ["eu", "us"]}},
    {"key": "one_click_checkout", "rollout_pct": 0, "allow": ["vip-1"]},
    {"key": "dark_mode", "enabled": False},
]

CONFIG = "env = staging\napi_key = fw_abc\nregion = eu\n"


@pytest.fixture(autouse=True)
def transports():
    flags.reset()
    transport = StaticTransport(RULES, salt="s1")
    flags.configure("staging", transport)
    flags.configure("prod", StaticTransport(RULES, salt="s1"))
    yield transport
    flags.reset()


def test_config_parsing():
    cfg = parse(CONFIG + "flag.dark_mode = on  # testing\n")
    assert cfg.overrides == {"dark_mode": True}
    with pytest.raises(ConfigError):
        parse("env = qa\napi_key = fw_x\n")


def test_bucket_is_stable():
    assert bucket("f", "u1", "s") == bucket("f", "u1", "s")
    assert 0 <= bucket("f", "u2") < 100


def test_checkout_flow_by_user():
    store = Storefront(parse(CONFIG))
    assert store.checkout_flow("vip-1") == "one-click"
    assert store.checkout_flow("u-7") == "v2"
    assert store.checkout_flow("u-7", region="apac") == "classic"


def test_override_wins():
    store = Storefront(parse(CONFIG + "flag.new_checkout = off\n"))
    assert store.checkout_flow("u-7") == "classic"


def test_clients_are_shared_per_key():
    a = Storefront(parse(CONFIG))
    b = Storefront(parse(CONFIG))
    assert a.client is b.client


def test_reload_keeps_flags_working():
    store = Storefront(parse(CONFIG))
    store.reload(CONFIG + "region = us\n")
    assert store.reloads == 1
    assert store.checkout_flow("u-7") == "v2"
    assert store.refresh() is True


def test_reload_to_another_env_then_back(transports):
    store = Storefront(parse(CONFIG))
    store.reload("env = prod\napi_key = fw_abc\n")
    store.reload(CONFIG)
    assert store.checkout_flow("vip-1") == "one-click"
    assert transports.fetches == 2


def test_key_rotation_and_back():
    store = Storefront(parse(CONFIG))
    store.rotate_key("fw_new")
    assert store.checkout_flow("vip-1") == "one-click"
    store.rotate_key("fw_abc")
    assert store.checkout_flow("vip-1") == "one-click"


def test_second_storefront_after_first_reloads():
    first = Storefront(parse(CONFIG))
    first.reload(CONFIG)
    second = Storefront(parse(CONFIG))
    assert second.checkout_flow("u-1") == "v2"


def test_config_round_trip():
    from config import dumps

    cfg = parse(CONFIG + "flag.dark_mode = on\n")
    assert parse(dumps(cfg)) == cfg


def test_exposure_after_reload():
    store = Storefront(parse(CONFIG))
    users = [f"u-{i}" for i in range(20)]
    assert store.exposure_report("new_checkout", users)["pct"] == 100.0
    store.reload(CONFIG)
    assert store.exposure_report("new_checkout", users) == {"flag": "new_checkout", "users": 20, "enabled": 20, "pct": 100.0}
    assert store.exposure_report("dark_mode", users)["enabled"] == 0
