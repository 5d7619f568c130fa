"""One link to one instrument."""
import itertools

_serial = itertools.count(1)


class LinkError(IOError):
    pass


class LinkClosed(LinkError):
    pass


class LinkTimeout(LinkError):
    """The instrument did not answer in time; the link itself is still sound."""


class Link:
    def __init__(self, transport, address, terminator=b"\n"):
        self.transport = transport
        self.address = address
        self.terminator = terminator
        self.serial = next(_serial)
        self.commands_sent = 0
        self._closed = False
        self._broken = False

    @property
    def closed(self):
        return self._closed

    def usable(self):
        """A link that has not failed at the transport level may be handed out again."""
        return not self._broken

    def query(self, command):
        if self._closed:
            raise LinkClosed(f"link #{self.serial} to {self.address} is closed")
        try:
            self.transport.write(command.encode("ascii") + self.terminator)
            reply = self.transport.readline()
        except TimeoutError as exc:
            raise LinkTimeout(f"link #{self.serial}: {exc}") from exc
        except OSError as exc:
            self._broken = True
            raise LinkError(f"link #{self.serial}: {exc}") from exc
        self.commands_sent += 1
        return reply.decode("ascii").rstrip("\r\n")

    def close(self):
        if not self._closed:
            self._closed = True
            close = getattr(self.transport, "close", None)
            if close is not None:
                close()

    def __repr__(self):
        state = "closed" if self._closed else "open"
        return f"<Link #{self.serial} {self.address} {state}>"
