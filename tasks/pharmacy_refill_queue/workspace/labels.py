from datetime import timedelta

COUNSELING = {
    "metformin": "Take with meals.",
    "warfarin": "Avoid sudden changes in leafy greens; report unusual bruising.",
    "oxycodone": "May cause drowsiness. Do not drive.",
    "ibuprofen": "Take with food.",
}


def frequency(units, days_supply):
    per_day = units / days_supply
    if per_day >= 4:
        return f"{int(per_day)} times daily"
    if per_day >= 3:
        return "three times daily"
    if per_day >= 2:
        return "twice daily"
    if per_day >= 1:
        return "once daily"
    return f"every {round(1 / per_day)} days"


def label_lines(rx, filled_on, pharmacist):
    lines = [
        f"{rx.patient.upper()}  Rx {rx.rx_id}",
        f"{rx.drug.title()} x{rx.units}",
        f"Take 1 {frequency(rx.units, rx.days_supply)}.",
    ]
    advice = COUNSELING.get(rx.drug)
    if advice:
        lines.append(advice)
    if rx.controlled:
        lines.append("CONTROLLED SUBSTANCE: keep out of reach of others.")
    lines.append(f"Filled {filled_on.isoformat()} by {pharmacist}; refills left {rx.refills_left}")
    discard = filled_on + timedelta(days=365)
    lines.append(f"Discard after {discard.isoformat()}")
    return lines


def render(lines, width=42):
    border = "+" + "-" * (width - 2) + "+"
    out = [border]
    for line in lines:
        out.append("|" + line[: width - 2].ljust(width - 2) + "|")
    out.append(border)
    return "\n".join(out)
