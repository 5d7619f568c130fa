"""Text plugins for publishing channels. Each is configured by the channel that uses it."""
import re

from plugin_registry import register


class Plugin:
    name = ""

    def configure(self, **options) -> None:
        if options:
            raise TypeError(f"{self.name} takes no options, got {sorted(options)}")

    def apply(self, text: str) -> str:
        raise NotImplementedError


@register
class StripHtml(Plugin):
    name = "strip_html"
    _TAG = re.compile(r"<[^>]+>")

    def apply(self, text: str) -> str:
        return " ".join(self._TAG.sub(" ", text).split())


@register
class Truncate(Plugin):
    name = "truncate"

    def configure(self, max_chars: int = 280, ellipsis: str = "…") -> None:
        if max_chars <= len(ellipsis):
            raise ValueError("max_chars must leave room for the ellipsis")
        self.max_chars = max_chars
        self.ellipsis = ellipsis

    def apply(self, text: str) -> str:
        if len(text) <= self.max_chars:
            return text
        return text[: self.max_chars - len(self.ellipsis)].rstrip() + self.ellipsis


@register
class Censor(Plugin):
    name = "censor"

    def configure(self, words: tuple[str, ...] = (), replacement: str = "***") -> None:
        self.pattern = re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b", re.I) if words else None
        self.replacement = replacement

    def apply(self, text: str) -> str:
        return self.pattern.sub(self.replacement, text) if self.pattern else text
