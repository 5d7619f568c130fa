"""DNA sequences: FASTA parsing, validation and reverse complements."""
from dataclasses import dataclass

BASES = set("ACGTN")
COMPLEMENT = str.maketrans("ACGTN", "TGCAN")


class SequenceError(ValueError):
    pass


@dataclass(frozen=True)
class Record:
    name: str
    seq: str

    def __post_init__(self):
        bad = set(self.seq) - BASES
        if bad:
            raise SequenceError(f"{self.name}: unexpected characters {sorted(bad)}")

    def __len__(self):
        return len(self.seq)

    def reverse_complement(self):
        return Record(self.name + "/rc", self.seq.translate(COMPLEMENT)[::-1])

    def gc_fraction(self):
        called = [b for b in self.seq if b != "N"]
        return round(sum(1 for b in called if b in "GC") / len(called), 3) if called else 0.0


def parse_fasta(text):
    records, name, chunks = [], None, []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith(">"):
            if name is not None:
                records.append(Record(name, "".join(chunks).upper()))
            name, chunks = line[1:].split()[0], []
        elif name is None:
            raise SequenceError("sequence data before the first header")
        else:
            chunks.append(line)
    if name is not None:
        records.append(Record(name, "".join(chunks).upper()))
    return records
