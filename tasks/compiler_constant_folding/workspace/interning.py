"""Hash-consing: structurally equal subtrees become one shared node, so later passes see common subexpressions."""


class InternTable:
    def __init__(self):
        self._nodes = {}
        self.hits = 0

    def intern(self, node):
        node.children = [self.intern(c) for c in node.children]
        key = node.key()
        found = self._nodes.get(key)
        if found is not None:
            self.hits += 1
            return found
        self._nodes[key] = node
        return node

    def __len__(self):
        return len(self._nodes)


def shared_subtrees(statements):
    """Subtrees (other than leaves) reachable from more than one place, by id."""
    seen, shared = {}, set()
    for _, tree in statements:
        for node in tree.walk():
            if node.children:
                if id(node) in seen:
                    shared.add(id(node))
                seen[id(node)] = node
    return [seen[i] for i in shared]
