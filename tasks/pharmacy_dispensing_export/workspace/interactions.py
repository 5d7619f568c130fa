"""A small interaction table checked before a new prescription is dispensed."""

PAIRS = {
    frozenset({"warfarin", "aspirin"}): "bleeding risk",
    frozenset({"simvastatin", "clarithromycin"}): "myopathy risk",
    frozenset({"sertraline", "tramadol"}): "serotonin syndrome risk",
}


def interactions(new_rx, current):
    """Warnings for the new prescription against the patient's other current prescriptions."""
    warnings = []
    for rx in current:
        if rx.patient != new_rx.patient or rx.rx_id == new_rx.rx_id:
            continue
        reason = PAIRS.get(frozenset({rx.drug.lower(), new_rx.drug.lower()}))
        if reason:
            warnings.append(f"{new_rx.drug} with {rx.drug}: {reason}")
    return sorted(warnings)
