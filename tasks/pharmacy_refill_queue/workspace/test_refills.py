from datetime import date

import pytest

from audit import AuditTrail
from cabinet import DispensingCabinet, DrawerBusy, StockShortage
from prescriptions import Prescription, PrescriptionError
from refills import RefillService

D1 = date(2026, 5, 1)


def service(stock=None):
    svc = RefillService(DispensingCabinet(stock or {"metformin": 200, "oxycodone": 40, "warfarin": 60, "ibuprofen": 90}))
    svc.register(Prescription("RX1", "ann", "metformin", 60, 30, 3))
    svc.register(Prescription("RX2", "ann", "oxycodone", 30, 10, 1, controlled=True))
    svc.register(Prescription("RX3", "bob", "warfarin", 30, 30, 2))
    svc.register(Prescription("RX4", "bob", "ibuprofen", 30, 15, 2))
    return svc


def test_refill_takes_stock_and_counts_down():
    svc = service()
    assert svc.refill("RX1", "pat", D1) == {"rx": "RX1", "units": 60, "refills_left": 2}
    assert svc.cabinet.remaining("metformin") == 140
    assert svc.cabinet.open_drawers == {}


def test_too_early_refill_is_rejected():
    svc = service()
    svc.refill("RX1", "pat", D1)
    with pytest.raises(PrescriptionError, match="too early"):
        svc.refill("RX1", "pat", date(2026, 5, 20))
    assert svc.refill("RX1", "pat", date(2026, 5, 25))["refills_left"] == 1


def test_queue_report():
    svc = service()
    svc.refill("RX1", "pat", D1)
    assert svc.queue_report(date(2026, 5, 2)) == ["RX2", "RX3", "RX4"]


def test_drawer_is_exclusive():
    cab = DispensingCabinet({"metformin": 5})
    with cab.drawer("metformin", "pat"):
        with pytest.raises(DrawerBusy):
            with cab.drawer("metformin", "sam"):
                pass


def test_shortage_leaves_the_drawer_usable():
    svc = service()
    svc.cabinet.stock["oxycodone"] = 0
    with pytest.raises(StockShortage):
        svc.refill("RX2", "sam", date(2026, 5, 30))
    assert svc.restock("oxycodone", 40, "sam") == 40


def test_shortage_is_audited_and_closed():
    svc = service({"metformin": 10})
    with pytest.raises(StockShortage):
        svc.refill("RX1", "pat", D1)
    assert svc.audit.open_sessions == set()
    assert svc.cabinet.open_drawers == {}


def test_interaction_blocks_refill_and_closes_audit():
    svc = service()
    svc.refill("RX3", "pat", D1)
    with pytest.raises(PrescriptionError, match="interacts"):
        svc.refill("RX4", "pat", D1)
    assert svc.audit.events_for("RX4") == ["begin", "interaction:warfarin", "end"]
    assert svc.audit.open_sessions == set()


def test_controlled_fill_is_noted():
    svc = service()
    svc.refill("RX2", "pat", D1)
    assert svc.audit.events_for("RX2") == ["begin", "controlled:30", "filled", "end"]


def test_label_for_a_fill():
    svc = service()
    svc.refill("RX1", "pat", D1)
    assert svc.labels["RX1"][:4] == ["ANN  Rx RX1", "Metformin x60", "Take 1 twice daily.", "Take with meals."]
    assert svc.labels["RX1"][-1] == "Discard after 2027-05-01"


def test_label_after_a_retried_controlled_fill():
    svc = service({"oxycodone": 10})
    with pytest.raises(StockShortage):
        svc.refill("RX2", "pat", D1)
    svc.restock("oxycodone", 30, "sam")
    svc.refill("RX2", "sam", D1)
    assert "CONTROLLED SUBSTANCE: keep out of reach of others." in svc.labels["RX2"]
