"""Variant calls from an alignment of a sample against the reference (top = reference)."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Variant:
    position: int
    kind: str
    ref: str
    alt: str

    def __str__(self):
        return f"{self.position}:{self.kind}:{self.ref}>{self.alt}"


def call_variants(alignment, offset=0):
    """SNVs, insertions and deletions, positions 1-based on the reference. Runs of gaps are merged."""
    calls, pos = [], offset + alignment.start[0]
    for ref_base, alt_base in alignment.columns():
        if ref_base == "-":
            last = calls[-1] if calls else None
            if last and last.kind == "INS" and last.position == pos:
                calls[-1] = Variant(pos, "INS", "-", last.alt + alt_base)
            else:
                calls.append(Variant(pos, "INS", "-", alt_base))
            continue
        pos += 1
        if alt_base == "-":
            last = calls[-1] if calls else None
            if last and last.kind == "DEL" and last.position + len(last.ref) == pos:
                calls[-1] = Variant(last.position, "DEL", last.ref + ref_base, "-")
            else:
                calls.append(Variant(pos, "DEL", ref_base, "-"))
        elif ref_base != alt_base and "N" not in (ref_base, alt_base):
            calls.append(Variant(pos, "SNV", ref_base, alt_base))
    return calls
