import pytest

from hooks import HookRegistry
from loader import PluginError, PluginLoader
from notifier import Notifier

EMAIL_V1 = '''
def setup(registry):
    registry.register("order.shipped", lambda order: f"email: {order['order_id']} is on its way")
'''
EMAIL_V2 = '''
def setup(registry):
    registry.register("order.shipped", lambda order: f"email: {order['order_id']} has shipped")
'''
SMS = '''
def setup(registry):
    def send(order):
        if order.get("phone"):
            return f"sms to {order['phone']}: {order['order_id']} shipped"
    registry.register("order.shipped", send)
'''


@pytest.fixture
def service(tmp_path):
    registry = HookRegistry()
    return tmp_path, PluginLoader(registry, tmp_path), Notifier(registry)


def test_plugins_in_directory_are_loaded(service):
    plugins, loader, notifier = service
    (plugins / "email.py").write_text(EMAIL_V1)
    (plugins / "sms.py").write_text(SMS)
    assert loader.scan() == ["email", "sms"]
    assert notifier.order_shipped({"order_id": "A1", "phone": "555"}) == [
        "email: A1 is on its way",
        "sms to 555: A1 shipped",
    ]


def test_rescan_without_changes_reloads_nothing(service):
    plugins, loader, notifier = service
    (plugins / "email.py").write_text(EMAIL_V1)
    loader.scan()
    assert loader.scan() == []
    assert notifier.order_shipped({"order_id": "A2"}) == ["email: A2 is on its way"]


def test_edited_plugin_replaces_its_previous_version(service):
    plugins, loader, notifier = service
    (plugins / "email.py").write_text(EMAIL_V1)
    loader.scan()
    (plugins / "email.py").write_text(EMAIL_V2)
    assert loader.scan() == ["email"]
    assert notifier.order_shipped({"order_id": "A3"}) == ["email: A3 has shipped"]


def test_deleted_plugin_stops_sending(service):
    plugins, loader, notifier = service
    (plugins / "email.py").write_text(EMAIL_V1)
    (plugins / "sms.py").write_text(SMS)
    loader.scan()
    (plugins / "sms.py").unlink()
    loader.scan()
    assert loader.loaded == ["email"]
    assert notifier.order_shipped({"order_id": "A4", "phone": "555"}) == ["email: A4 is on its way"]


def test_plugin_without_setup_is_rejected(service):
    plugins, loader, _ = service
    (plugins / "broken.py").write_text("MESSAGE = 'hello'\n")
    with pytest.raises(PluginError, match="broken.py"):
        loader.scan()
