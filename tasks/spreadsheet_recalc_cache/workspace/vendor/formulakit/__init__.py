"""formulakit: parse and evaluate spreadsheet formulas such as =SUM(A1:A3)*B2.

    tree = parse("=A1+2*B1")
    references(tree)            -> {"A1", "B1"}
    evaluate(tree, lookup)      -> number, where lookup("A1") gives a cell's value
"""
from .grammar import FormulaError, parse
from .evaluate import FUNCTIONS, evaluate, references
from .cells import column_index, column_name, expand_range, split_ref

__all__ = ["FUNCTIONS", "FormulaError", "column_index", "column_name", "evaluate", "expand_range", "parse",
           "references", "split_ref"]
