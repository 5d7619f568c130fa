from feeds import parse_feed
from subscriptions import DownloadQueue, Subscription
from vendor.pubsubkit import Bus


class PodcastLibrary:
    def __init__(self, bus=None):
        self.bus = bus or Bus()
        self.downloads = DownloadQueue()
        self.subscriptions = {}
        self.known = {}

    def subscribe(self, show, max_minutes=None):
        if show in self.subscriptions:
            return self.subscriptions[show]
        sub = Subscription(self.bus, show, self.downloads, max_minutes)
        self.subscriptions[show] = sub
        return sub

    def unsubscribe(self, show):
        sub = self.subscriptions.pop(show, None)
        if sub is not None:
            sub.close()

    def refresh(self, show, items):
        known = self.known.setdefault(show, set())
        fresh = [ep for ep in parse_feed(show, items) if ep.guid not in known]
        for ep in fresh:
            known.add(ep.guid)
            self.bus.publish(ep.topic, ep)
        return [ep.guid for ep in fresh]

    def listeners(self, show):
        return self.bus.subscriber_count(f"shows.{show}.episodes")
