"""A chat client's server-side connection object."""


class ClientConnection:
    def __init__(self, client_id, user):
        if not client_id:
            raise ValueError("client_id must be non-empty")
        self.client_id = client_id
        self.user = user
        self.inbox = []

    def __repr__(self):
        return f"<ClientConnection {self.client_id} user={self.user}>"

    def send(self, message):
        self.inbox.append(message)
