import pytest

from compiler import CompileError, compile_program, evaluate

RATE_CARD = """
base = 40
surcharge = base / 4
x = base + surcharge
total = x * input(0)
x = input(1)
fee = x * 3
"""


def test_parse_and_print_round_trip():
    assert compile_program("y = a * (b + 2) - -c", ["y"], optimise=False) == ["y = a * (b + 2) - -c"]


def test_folding_constants():
    assert compile_program("k = 2 * (3 + 4) - max(1, 5)", ["k"]) == ["k = 9"]


def test_constants_propagate_into_later_lines():
    assert compile_program("a = 6\nb = a * 7\nc = b + input(0)", ["c"]) == ["c = 42 + input(0)"]


def test_reassigned_name_is_not_treated_as_constant():
    lines = compile_program(RATE_CARD, ["total", "fee"])
    assert lines == ["total = 50 * input(0)", "x = input(1)", "fee = x * 3"]


def test_optimised_program_computes_the_same():
    plain = evaluate(compile_program(RATE_CARD, ["total", "fee"], optimise=False), {0: 2, 1: 11})
    fast = evaluate(compile_program(RATE_CARD, ["total", "fee"]), {0: 2, 1: 11})
    assert (fast["total"], fast["fee"]) == (plain["total"], plain["fee"]) == (100, 33)


def test_shared_subexpression_in_two_scopes():
    src = "n = 3\nm = (n + 1) * 2\nn = input(0)\nq = (n + 1) * 2"
    assert evaluate(compile_program(src, ["m", "q"]), {0: 9}) == {"m": 8, "n": 9, "q": 20}


def test_division_by_zero_is_left_for_run_time():
    assert compile_program("z = 1 / 0", ["z"]) == ["z = 1 / 0"]


def test_syntax_errors_name_the_line():
    with pytest.raises(CompileError, match="line 2"):
        compile_program("a = 1\nb = (a +", ["b"])
