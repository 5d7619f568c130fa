"""Headless browser sessions used by the scraper. Launching one is expensive."""
import itertools


class BrowserSession:
    def __init__(self, session_id, user_agent):
        self.session_id = session_id
        self.user_agent = user_agent
        self.pages_loaded = 0
        self.closed = False

    def load(self, url):
        if self.closed:
            raise RuntimeError(f"session {self.session_id} is closed")
        self.pages_loaded += 1
        return f"<html><!-- {url} via {self.session_id} --></html>"

    def close(self):
        self.closed = True


class BrowserLauncher:
    """Starts new sessions and counts how many were ever launched."""

    def __init__(self, user_agent="scraper/1.0"):
        self.user_agent = user_agent
        self._ids = itertools.count(1)
        self.launched = 0

    def launch(self):
        self.launched += 1
        return BrowserSession(f"browser-{next(self._ids)}", self.user_agent)
