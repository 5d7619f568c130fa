from devices import Device
from events import Emitter
from provisioning import Provisioner

SITE = {"thermostat": {"setpoint": 20.5, "units": "C"}}


def paired_thermostat():
    prov = Provisioner(SITE, hub_time=1_700_000_000.0)
    dev = Device("th-01", "thermostat")
    prov.pair(dev)
    return prov, dev


def test_single_once_handler_runs_once():
    em, seen = Emitter(), []
    em.once("ping", seen.append)
    assert em.emit("ping", 1) == 1
    assert em.emit("ping", 2) == 0
    assert seen == [1]


def test_config_pushed_on_first_connect():
    prov, dev = paired_thermostat()
    dev.connect()
    assert dev.config == {"setpoint": 20.5, "units": "C"}


def test_device_is_fully_provisioned_after_first_connect():
    prov, dev = paired_thermostat()
    dev.connect()
    assert dev.clock_offset_s == 0.0, prov.log
    assert prov.update_queue == ["th-01"], prov.log


def test_connection_log_over_a_reconnect():
    prov, dev = paired_thermostat()
    dev.connect()
    dev.disconnect()
    dev.connect()
    assert [line for line in prov.log if "line" in line] == ["th-01 online", "th-01 offline", "th-01 online"], prov.log


def test_only_persistent_handlers_remain_after_first_connect():
    prov, dev = paired_thermostat()
    dev.connect()
    assert dev.events.count("connected") == 1
