"""Alignment summaries for the read-mapping QC report."""
from align import global_align, local_align


def identity(alignment):
    cols = alignment.columns()
    if not cols:
        return 0.0
    return round(100 * sum(1 for x, y in cols if x == y and x != "-") / len(cols), 1)


def cigar(alignment):
    """M for aligned columns, I for bases only in the read (bottom), D for bases only in the reference (top)."""
    ops = []
    for x, y in alignment.columns():
        op = "I" if x == "-" else "D" if y == "-" else "M"
        if ops and ops[-1][0] == op:
            ops[-1][1] += 1
        else:
            ops.append([op, 1])
    return "".join(f"{n}{op}" for op, n in ops)


def best_strand(reference, read, scheme=None):
    """Align the read and its reverse complement locally; keep the better one."""
    kwargs = {} if scheme is None else {"scheme": scheme}
    forward = local_align(reference.seq, read.seq, **kwargs)
    reverse = local_align(reference.seq, read.reverse_complement().seq, **kwargs)
    return ("+", forward) if forward.score >= reverse.score else ("-", reverse)


def qc_table(reference, reads):
    rows = []
    for read in reads:
        strand, aln = best_strand(reference, read)
        rows.append(f"{read.name}\t{strand}\t{aln.start[0]}\t{cigar(aln)}\t{identity(aln)}")
    return rows


def global_identity(a, b):
    return identity(global_align(a, b))
