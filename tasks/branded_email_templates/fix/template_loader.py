"""Loads message templates from a directory. Compiled templates are cached for the life of the process."""
from pathlib import Path
from string import Template

_compiled: dict[tuple[Path, str], Template] = {}


class TemplateNotFound(LookupError):
    pass


class TemplateStore:
    def __init__(self, root: Path, fallback: "TemplateStore | None" = None):
        self.root = Path(root)
        self.fallback = fallback

    def get(self, name: str) -> Template:
        key = (self.root, name)
        cached = _compiled.get(key)
        if cached is not None:
            return cached
        path = self.root / name
        if not path.is_file():
            if self.fallback is not None:
                return self.fallback.get(name)
            raise TemplateNotFound(f"template {name!r} not found under {self.root}")
        template = Template(path.read_text(encoding="utf-8"))
        _compiled[key] = template
        return template


def clear_cache() -> None:
    """Forget compiled templates (after a deploy replaces template files)."""
    _compiled.clear()
