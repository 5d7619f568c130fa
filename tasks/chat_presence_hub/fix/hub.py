"""Tracks which client connections are alive.

The hub holds connections weakly: the network layer owns them, and when it drops one the hub
forgets it without being told. A client that reconnects (for example after a network switch)
resumes under its old client id with a new connection object.
"""
import weakref


class ConnectionHub:
    def __init__(self):
        self._refs = {}

    def __len__(self):
        return len(self._refs)

    def register(self, client):
        """Track `client`; a client resuming under a known id replaces the old connection."""
        key = client.client_id
        ref = weakref.ref(client)
        self._refs[key] = ref
        weakref.finalize(client, self._forget, key, ref)

    def _forget(self, key, ref):
        # A resumed client's old connection dies after its replacement was registered.
        if self._refs.get(key) is ref:
            del self._refs[key]

    def adopt(self, clients):
        """Take over live connections from a hub being retired during a rolling deploy."""
        adopted = 0
        for client in clients:
            current = self._refs.get(client.client_id)
            if current is not None and current() is not None:
                raise ValueError(f"client {client.client_id} is already connected to this hub")
            self.register(client)
            adopted += 1
        return adopted

    def live_clients(self):
        clients = (ref() for ref in list(self._refs.values()))
        return [client for client in clients if client is not None]

    def online(self):
        return sorted(client.client_id for client in self.live_clients())
