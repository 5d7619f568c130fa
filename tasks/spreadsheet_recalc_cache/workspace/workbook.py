"""A sheet of cells. A cell holds a number, text, or a formula starting with '='."""
from vendor.formulakit import parse, references, split_ref


class CycleError(ValueError):
    pass


class Sheet:
    def __init__(self, name):
        self.name = name
        self.raw = {}
        self.trees = {}
        self.precedents = {}
        self.dependents = {}

    def set(self, ref, content):
        split_ref(ref)
        self._unlink(ref)
        self.raw[ref] = content
        if isinstance(content, str) and content.startswith("="):
            tree = parse(content)
            refs = references(tree)
            if ref in refs or any(self._reaches(r, ref) for r in refs):
                self.raw.pop(ref)
                raise CycleError(f"{ref} would depend on itself")
            self.trees[ref] = tree
            self.precedents[ref] = refs
            for r in refs:
                self.dependents.setdefault(r, set()).add(ref)

    def _unlink(self, ref):
        self.trees.pop(ref, None)
        for r in self.precedents.pop(ref, set()):
            self.dependents.get(r, set()).discard(ref)

    def _reaches(self, start, target):
        stack, seen = [start], set()
        while stack:
            cur = stack.pop()
            if cur == target:
                return True
            if cur in seen:
                continue
            seen.add(cur)
            stack.extend(self.precedents.get(cur, ()))
        return False

    def clear(self, ref):
        self._unlink(ref)
        self.raw.pop(ref, None)
