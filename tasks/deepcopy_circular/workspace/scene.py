"""Scene graph for the layout editor: named nodes in a tree, each with a payload of settings."""
from dataclasses import dataclass, field


class SceneError(ValueError):
    pass


@dataclass
class Node:
    name: str
    kind: str = "group"
    payload: dict = field(default_factory=dict)
    children: list = field(default_factory=list)
    parent: "Node | None" = field(default=None, repr=False, compare=False)

    def add(self, child):
        if child.parent is not None:
            raise SceneError(f"{child.name} already belongs to {child.parent.name}")
        child.parent = self
        self.children.append(child)
        return child

    def remove(self, name):
        for i, child in enumerate(self.children):
            if child.name == name:
                child.parent = None
                return self.children.pop(i)
        raise SceneError(f"{self.name} has no child {name}")

    def depth(self):
        return 0 if self.parent is None else self.parent.depth() + 1

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()

    def path(self):
        parts = []
        node = self
        while node is not None:
            parts.append(node.name)
            node = node.parent
        return "/".join(reversed(parts))


class Scene:
    """A tree of nodes plus scene-wide settings shared by reference between nodes."""

    def __init__(self, title, root=None):
        self.title = title
        self.root = root if root is not None else Node("root")
        self.settings = {"units": "px", "grid": {"size": 8, "snap": True}}
        self.revision = 0

    def find(self, path):
        for node in self.root.walk():
            if node.path() == path:
                return node
        raise SceneError(f"no node at {path}")

    def nodes(self):
        return list(self.root.walk())

    def outline(self):
        """One line per node, indented by depth: what the editor's layer panel shows."""
        return "\n".join(f"{'  ' * node.depth()}{node.name} ({node.kind})" for node in self.root.walk())

    def touch(self):
        self.revision += 1

    def share_payload(self, key, value, *paths):
        """Put one settings object under `key` in several nodes' payloads."""
        for path in paths:
            self.find(path).payload[key] = value
        self.touch()
