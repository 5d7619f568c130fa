"""Factory defaults for a listener's preferences in the music app.

Every preference a user can set must appear here: the defaults double as the schema (key names and value types).
"""
DEFAULTS = {
    "notifications": {"email_digest": True, "new_releases": True, "quiet_start_hour": 22},
    "playback": {"volume": 70, "autoplay": True, "crossfade_seconds": 4, "subtitle_language": "en"},
    "privacy": {"share_listening": True, "show_in_search": True},
}


def lookup(tree: dict, dotted: str):
    node = tree
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            raise KeyError(dotted)
        node = node[part]
    return node
