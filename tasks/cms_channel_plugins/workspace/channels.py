"""Publishing channels (web, SMS, newsletters): each renders an article through its own plugin pipeline."""
import text_plugins  # noqa: F401  (registers the built-in plugins)
from plugin_registry import lookup


class Channel:
    def __init__(self, name: str, pipeline: list[tuple[str, dict]]):
        self.name = name
        self._steps = []
        for plugin_name, options in pipeline:
            plugin = lookup(plugin_name)
            plugin.configure(**options)
            self._steps.append(plugin)

    def render(self, text: str) -> str:
        for step in self._steps:
            text = step.apply(text)
        return text


def publish(article: str, channels: list[Channel]) -> dict[str, str]:
    return {channel.name: channel.render(article) for channel in channels}
