"""Where a breakpoint can stop: the real line table of the compiled code, not a guess from the text.

A line is executable when some code object compiled from the file has an instruction on it (``co_lines``). Blank
lines, comments, docstring continuations and the inside of a multi-line string have none, so a breakpoint there
could never be hit; we refuse it and offer the nearest lines that do execute.
"""
from __future__ import annotations

import types
from dataclasses import dataclass


@dataclass(frozen=True)
class LineTable:
    executable: frozenset[int]
    #: Lines of module or class bodies only: they run once, at import, usually before the test starts.
    module_only: frozenset[int]
    #: Name of the innermost function containing each function-body line.
    function_of: dict[int, str]


def _walk(code: types.CodeType, out: list[types.CodeType]) -> None:
    out.append(code)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _walk(const, out)


def _lines(code: types.CodeType) -> set[int]:
    return {line for _, _, line in code.co_lines() if line}  # line 0: the module's RESUME, not source


def _runs_per_call(code: types.CodeType) -> bool:
    """Functions, lambdas, comprehensions (CO_OPTIMIZED); not module or class bodies, which run once at import."""
    return bool(code.co_flags & 0x0001)


def line_table(source: str, filename: str) -> LineTable:
    """Compile `source` (raises SyntaxError) and index its executable lines."""
    module = compile(source, filename, "exec")
    codes: list[types.CodeType] = []
    _walk(module, codes)
    import_lines: set[int] = set()
    func_lines: dict[int, str] = {}
    inner: set[int] = set()
    # Walk outer code first so inner functions overwrite: the innermost name wins.
    for code in codes:
        if not _runs_per_call(code):
            import_lines |= _lines(code)
            continue
        for line in _lines(code):
            # A function's first instruction sits on its `def` line, but no line event fires there on a call: the
            # def line executes only in the enclosing scope, when the function is defined.
            if line == code.co_firstlineno and code.co_name != "<lambda>":
                continue
            func_lines[line] = code.co_qualname
            inner.add(line)
    executable = frozenset(import_lines | inner)
    return LineTable(executable=executable, module_only=frozenset(import_lines - inner), function_of=func_lines)


def nearest(table: LineTable, line: int, count: int = 2) -> list[int]:
    """The executable lines closest to `line`, nearest first (ties: the later line, where a body usually continues).
    Lines inside functions come first: module and class level lines run at import, before a test could stop there."""
    per_call = table.executable - table.module_only
    pool = per_call or table.executable
    return sorted(pool, key=lambda n: (abs(n - line), -n))[:count]
