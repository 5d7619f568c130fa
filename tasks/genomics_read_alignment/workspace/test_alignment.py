import pytest

from align import global_align, local_align
from report import cigar, global_identity, identity, qc_table
from scoring import TRANSITION_AWARE
from sequences import Record, SequenceError, parse_fasta
from variants import call_variants

FASTA = """
>chr_demo reference
ACGTTGCAAGGCTTAGC
CGTAGGCT
>read1
TTGCAAGGCTTA
>read2
TAAGCCTTGCAA
"""


def test_parse_fasta():
    ref, r1, r2 = parse_fasta(FASTA)
    assert (ref.name, len(ref), r1.seq) == ("chr_demo", 25, "TTGCAAGGCTTA")
    assert r2.reverse_complement().seq == "TTGCAAGGCTTA"
    with pytest.raises(SequenceError):
        Record("bad", "ACGU")


def test_identical_sequences():
    aln = global_align("GATTACA", "GATTACA")
    assert (aln.top, aln.bottom, aln.score) == ("GATTACA", "GATTACA", 14)


def test_global_alignment_with_a_gap():
    aln = global_align("GATTACA", "GATACA")
    assert aln.score == 10
    assert aln.bottom.count("-") == 1 and aln.top == "GATTACA"
    assert cigar(aln) in ("2M1D4M", "3M1D3M")


def test_local_alignment_finds_the_read():
    aln = local_align("ACGTTGCAAGGCTTAGC", "TTGCAAGG")
    assert (aln.top, aln.score, aln.start) == ("TTGCAAGG", 16, (3, 0))


def test_transition_scoring():
    assert global_align("ACGT", "GCGT", TRANSITION_AWARE).score == 5
    assert global_align("ACGT", "CCGT", TRANSITION_AWARE).score == 4


def test_identity_and_qc_table():
    ref, r1, r2 = parse_fasta(FASTA)
    assert global_identity("GATTACA", "GATTACA") == 100.0
    assert qc_table(ref, [r1, r2]) == ["read1\t+\t3\t12M\t100.0", "read2\t-\t3\t12M\t100.0"]
    assert identity(global_align("AAAA", "AATA")) == 75.0


def test_variant_calls():
    aln = global_align("ACGTTGCAAGGCTTAGC", "ACGTTGCTAGGCTTAGC")
    assert [str(v) for v in call_variants(aln)] == ["8:SNV:A>T"]
    deletion = global_align("ACGTTGCAAGGCTTAGC", "ACGTTGCAAGCTTAGC")
    assert [v.kind for v in call_variants(deletion)] == ["DEL"]
