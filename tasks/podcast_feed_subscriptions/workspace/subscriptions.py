from feeds import Episode


class Subscription:
    def __init__(self, bus, show, downloads, max_minutes=None):
        self.bus = bus
        self.show = show
        self.downloads = downloads
        self.max_minutes = max_minutes
        self.received = []
        self.active = False
        self.pattern = f"shows.{show}.episodes"
        self._listen()

    def _listen(self):
        self.bus.subscribe(self.pattern, lambda ep: self._on_episode(ep))
        self.active = True

    def _stop(self):
        self.bus.unsubscribe(self.pattern, self._on_episode)
        self.active = False

    def _on_episode(self, episode: Episode):
        self.received.append(episode.guid)
        if self.max_minutes is not None and episode.duration_s > self.max_minutes * 60:
            return
        self.downloads.enqueue(episode)

    def pause(self):
        if self.active:
            self._stop()

    def resume(self):
        if not self.active:
            self._listen()

    def close(self):
        self.pause()
        self.downloads.forget_show(self.show)


class DownloadQueue:
    def __init__(self):
        self.queue = []

    def enqueue(self, episode):
        if all(e.guid != episode.guid for e in self.queue):
            self.queue.append(episode)

    def forget_show(self, show):
        self.queue = [e for e in self.queue if e.show != show]

    def titles(self):
        return [e.title for e in self.queue]
