"""Lazy recalculation with a value cache: a cell is computed when first read and kept until an edit
touches it."""
from vendor.formulakit import FormulaError, evaluate


class Calculator:
    def __init__(self, sheet):
        self.sheet = sheet
        self._cache = {}
        self.evaluations = 0

    def value(self, ref):
        if ref in self._cache:
            return self._cache[ref]
        tree = self.sheet.trees.get(ref)
        if tree is None:
            raw = self.sheet.raw.get(ref)
            result = float(raw) if isinstance(raw, (int, float)) else 0.0
        else:
            self.evaluations += 1
            try:
                result = evaluate(tree, self.value)
            except FormulaError as exc:
                result = f"#ERR {exc}"
        self._cache[ref] = result
        return result

    def edit(self, ref, content):
        self.sheet.set(ref, content)
        self._invalidate(ref)

    def _invalidate(self, ref):
        stack = [ref]
        while stack:
            cur = stack.pop()
            self._cache.pop(cur, None)
            stack.extend(self.sheet.dependents.get(cur, ()))

    def values(self, refs):
        return [self.value(r) for r in refs]
