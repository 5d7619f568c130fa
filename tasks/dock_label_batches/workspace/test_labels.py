import pytest

from labels import BatchRejected, labels_in, print_batch, render, reprint, unlabelled
from schema import open_pool
from shipments import Shipment, ShipmentError, at_dock, load_by_carrier, register

A = Shipment("JJ000000001DE", 4, 1200, "dhl")
B = Shipment("JJ000000002DE", 4, 800, "ups")
C = Shipment("JJ000000003DE", 4, 15000, "dpd")
D = Shipment("JJ000000004DE", 5, 300, "post")


@pytest.fixture
def pool(tmp_path):
    pool = open_pool(tmp_path / "dock.db")
    register(pool, [A, B, C, D])
    yield pool
    pool.close()


def test_shipments_are_checked_on_arrival(pool):
    with pytest.raises(ShipmentError):
        register(pool, [Shipment("JJ1", 4, 100, "dhl")])
    assert [s.tracking for s in at_dock(pool, 4)] == [A.tracking, B.tracking, C.tracking]
    assert load_by_carrier(pool, 4) == {"dhl": (1, 1.2), "dpd": (1, 15.0), "ups": (1, 0.8)}


def test_label_layout():
    assert render(A) == "^XA^FO50,50^A0N,40^FDDHL^FS^FO50,120^BCN,100^FDJJ000000001DE^FS^FO50,260^FD1.2 kg^FS^XZ"


def test_batch_prints_every_label(pool):
    assert len(print_batch(pool, "b1", [A, B])) == 2
    assert labels_in(pool, "b1") == [A.tracking, B.tracking]
    assert unlabelled(pool, 4) == [C.tracking]
    assert pool.stats.opened == 1


def test_rejected_batch_leaves_no_labels(pool):
    heavy = Shipment("JJ000000009DE", 4, 40_000, "dhl")
    with pytest.raises(BatchRejected):
        print_batch(pool, "b2", [A, B, heavy])
    print_batch(pool, "b3", [D])
    assert labels_in(pool, "b2") == [], "labels of the rejected batch were stored"
    assert unlabelled(pool, 4) == [A.tracking, B.tracking, C.tracking]


def test_batch_with_a_label_already_printed_is_rejected_whole(pool):
    print_batch(pool, "b4", [C])
    with pytest.raises(BatchRejected):
        print_batch(pool, "b5", [A, C, B])
    print_batch(pool, "b6", [D])
    assert labels_in(pool, "b5") == [], "part of the rejected batch was stored"
    assert unlabelled(pool, 4) == [A.tracking, B.tracking]


def test_reprint_returns_the_stored_label(pool):
    (zpl,) = print_batch(pool, "b7", [D])
    assert reprint(pool, D.tracking) == zpl
    with pytest.raises(KeyError):
        reprint(pool, A.tracking)
