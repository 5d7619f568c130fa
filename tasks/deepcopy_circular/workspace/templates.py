"""Scene templates: a library of saved scenes that new scenes start from."""
from cloning import clone, duplicate
from scene import Scene, SceneError

PLACEHOLDER_TEXT = "Lorem ipsum"


class TemplateLibrary:
    def __init__(self):
        self._templates = {}
        self.uses = {}

    def save(self, name, scene):
        """Store a copy of `scene`, with its text cleared, as template `name`."""
        if not name or "/" in name:
            raise SceneError(f"bad template name: {name!r}")
        template = duplicate(scene, title=name)
        for node in template.nodes():
            if node.kind == "text":
                node.payload["text"] = PLACEHOLDER_TEXT
        self._templates[name] = template
        self.uses.setdefault(name, 0)
        return template

    def names(self):
        return sorted(self._templates)

    def start(self, name, title):
        """A new scene from template `name`; the template itself is never handed out."""
        try:
            template = self._templates[name]
        except KeyError:
            raise SceneError(f"no template {name!r}; have {', '.join(self.names()) or 'none'}") from None
        scene = clone(template)
        scene.title = title
        self.uses[name] += 1
        return scene

    def describe(self, name):
        template = self._templates[name]
        kinds = {}
        for node in template.nodes():
            kinds[node.kind] = kinds.get(node.kind, 0) + 1
        return {"title": template.title, "nodes": len(template.nodes()), "kinds": kinds, "uses": self.uses[name]}


def blank(title="untitled"):
    scene = Scene(title)
    scene.settings["grid"]["snap"] = False
    return scene
