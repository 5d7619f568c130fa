import threading
from contextlib import contextmanager

from .refs import reference, receiver_id


class _Any:
    def __repr__(self):
        return "ANY"


ANY = _Any()


class Signal:
    """Receivers are called as receiver(sender, **kwargs), in connection order.

    connect(..., weak=True) (the default) holds the receiver weakly: when nothing else
    references it, it is dropped silently. Pass weak=False to keep it alive.
    """

    def __init__(self, doc=None):
        self.__doc__ = doc
        self._lock = threading.RLock()
        self._receivers = {}
        self._senders = {}
        self.dropped = 0

    def connect(self, receiver, sender=ANY, weak=True):
        key = receiver_id(receiver)
        ref = reference(receiver, weak, lambda _ref, key=key: self._cleanup(key))
        with self._lock:
            self._receivers[key] = ref
            self._senders[key] = sender
        return receiver

    def connect_via(self, sender, weak=False):
        def decorator(fn):
            self.connect(fn, sender, weak)
            return fn

        return decorator

    def disconnect(self, receiver):
        key = receiver_id(receiver)
        with self._lock:
            self._receivers.pop(key, None)
            self._senders.pop(key, None)

    def _cleanup(self, key):
        with self._lock:
            if self._receivers.pop(key, None) is not None:
                self._senders.pop(key, None)
                self.dropped += 1

    def receivers_for(self, sender):
        with self._lock:
            items = list(self._receivers.items())
            senders = dict(self._senders)
        for key, ref in items:
            wanted = senders.get(key, ANY)
            if wanted is not ANY and wanted is not sender:
                continue
            receiver = ref()
            if receiver is not None:
                yield receiver

    def send(self, sender=None, **kwargs):
        """Call every live receiver for `sender`; returns [(receiver, return value)]."""
        return [(receiver, receiver(sender, **kwargs)) for receiver in list(self.receivers_for(sender))]

    @property
    def receivers(self):
        with self._lock:
            return len(self._receivers)

    @contextmanager
    def connected_to(self, receiver, sender=ANY):
        self.connect(receiver, sender, weak=False)
        try:
            yield self
        finally:
            self.disconnect(receiver)


class NamedSignal(Signal):
    def __init__(self, name, doc=None):
        super().__init__(doc)
        self.name = name

    def __repr__(self):
        return f"<NamedSignal {self.name!r}>"


_registry = {}
_registry_lock = threading.Lock()


def signal(name, doc=None):
    """The process-wide signal called `name`, created on first use."""
    with _registry_lock:
        if name not in _registry:
            _registry[name] = NamedSignal(name, doc)
        return _registry[name]
