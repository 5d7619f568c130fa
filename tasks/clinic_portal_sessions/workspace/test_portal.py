import pytest

from portal import PatientPortal, Request


@pytest.fixture
def portal():
    # One worker thread: requests are served one after another on the same thread,
    # exactly as a busy pool reuses its threads.
    p = PatientPortal(workers=1)
    p.sessions.open("a1", "alice")
    p.sessions.open("b2", "bob")
    p.appointments = {"alice": ["2024-05-02"], "bob": ["2024-06-10"]}
    yield p
    p.shutdown()


def call(portal, path, cookie=None, **params):
    headers = {"Cookie": f"sid={cookie}"} if cookie else {}
    return portal.submit(Request(path, headers, params)).result(timeout=2)


def test_signed_in_patient_sees_own_appointments(portal):
    assert call(portal, "/appointments", "a1").body == ["2024-05-02"]
    assert call(portal, "/appointments", "b2").body == ["2024-06-10"]


def test_guest_must_sign_in(portal):
    assert call(portal, "/").body == "Welcome, guest"
    assert call(portal, "/appointments").status == 401


def test_reschedule_moves_appointment(portal):
    response = call(portal, "/reschedule", "a1", old="2024-05-02", new="2024-05-09")
    assert response.status == 200
    assert call(portal, "/appointments", "a1").body == ["2024-05-09"]


def test_bad_reschedule_is_a_client_error(portal):
    response = call(portal, "/reschedule", "a1", old="2024-05-02", new="next tuesday")
    assert response.status == 400
    assert call(portal, "/appointments", "a1").body == ["2024-05-02"]


def test_guest_after_failed_request_is_still_a_guest(portal):
    assert call(portal, "/reschedule", "a1", old="2024-05-02", new="31/05").status == 400
    assert call(portal, "/").body == "Welcome, guest"


def test_guest_cannot_list_appointments_after_patient_error(portal):
    assert call(portal, "/reschedule", "b2", old="1999-01-01", new="2024-07-01").status == 400
    response = call(portal, "/appointments")
    assert response.status == 401, f"guest request got {response.status}: {response.body}"
