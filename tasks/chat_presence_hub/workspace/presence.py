"""Presence and broadcast on top of the connection hub."""


class PresenceService:
    def __init__(self, hub):
        self._hub = hub

    def users_online(self):
        return sorted({client.user for client in self._hub.live_clients()})

    def broadcast(self, message):
        """Send to every live connection; return how many received it."""
        clients = self._hub.live_clients()
        for client in clients:
            client.send(message)
        return len(clients)


def hand_over(old_hub, new_hub):
    """Move every live connection from `old_hub` to `new_hub`; return how many moved."""
    return new_hub.adopt(old_hub.live_clients())
