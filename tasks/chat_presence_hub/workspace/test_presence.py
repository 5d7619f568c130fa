from clients import ClientConnection
from hub import ConnectionHub
from presence import PresenceService, hand_over


class NetworkLayer:
    """Owns the open sockets' connection objects, as the real server does."""

    def __init__(self, hub):
        self.hub = hub
        self.sockets = {}

    def connect(self, socket_id, client_id):
        client = ClientConnection(client_id, user=f"user-{client_id}")
        self.sockets[socket_id] = client
        self.hub.register(client)
        return client

    def drop(self, socket_id):
        del self.sockets[socket_id]


def test_connected_clients_are_online():
    net = NetworkLayer(ConnectionHub())
    net.connect(1, "a")
    net.connect(2, "b")
    assert net.hub.online() == ["a", "b"]
    assert PresenceService(net.hub).users_online() == ["user-a", "user-b"]


def test_dropped_socket_goes_offline():
    net = NetworkLayer(ConnectionHub())
    for socket_id, client_id in enumerate("abc"):
        net.connect(socket_id, client_id)
    net.drop(0)
    assert net.hub.online() == ["b", "c"]
    assert len(net.hub) == 2


def test_resumed_client_is_tracked_by_its_new_connection():
    net = NetworkLayer(ConnectionHub())
    net.connect(1, "a")
    resumed = net.connect(2, "a")
    assert net.hub.live_clients() == [resumed]


def test_resumed_client_stays_online_when_old_socket_is_dropped():
    net = NetworkLayer(ConnectionHub())
    net.connect(1, "a")
    net.connect(2, "b")
    net.connect(3, "a")
    net.drop(1)
    assert net.hub.online() == ["a", "b"]


def test_broadcast_reaches_resumed_client():
    net = NetworkLayer(ConnectionHub())
    net.connect(1, "a")
    resumed = net.connect(2, "a")
    net.drop(1)
    assert PresenceService(net.hub).broadcast("server restarting at 02:00") == 1
    assert resumed.inbox == ["server restarting at 02:00"]


def test_handover_moves_every_connection():
    old = NetworkLayer(ConnectionHub())
    for socket_id, client_id in enumerate("abc"):
        old.connect(socket_id, client_id)
    new_hub = ConnectionHub()
    assert hand_over(old.hub, new_hub) == 3
    old.drop(1)
    assert new_hub.online() == ["a", "c"]
