"""Prescription charges: a flat charge per item unless the patient is exempt."""
from datetime import date

CHARGE_PENCE = 990
EXEMPT_AGE_UNDER = 16
EXEMPT_AGE_FROM = 60


def age_on(born, day):
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def charge_for(rx, born, day=None, certificate=False):
    """Pence the patient pays for one dispensed item."""
    day = day or rx.issued
    age = age_on(born, day)
    if certificate or age < EXEMPT_AGE_UNDER or age >= EXEMPT_AGE_FROM:
        return 0
    return CHARGE_PENCE


def monthly_claim(dispensed, patients):
    """Items and charges collected per patient: dispensed is [(rx, day)], patients {name: (born, certificate)}."""
    out = {}
    for rx, day in dispensed:
        born, cert = patients[rx.patient]
        items, pence = out.get(rx.patient, (0, 0))
        out[rx.patient] = (items + 1, pence + charge_for(rx, born, day, cert))
    return dict(sorted(out.items()))


EPOCH = date(1900, 1, 1)
