"""References to receivers: weak by default, so connecting never keeps an object alive."""
import weakref


class StrongRef:
    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __call__(self):
        return self.obj


def reference(receiver, weak, on_dead):
    """A callable that returns the receiver, or None once it has been garbage-collected."""
    if not weak:
        return StrongRef(receiver)
    if hasattr(receiver, "__self__") and hasattr(receiver, "__func__"):
        return weakref.WeakMethod(receiver, on_dead)
    return weakref.ref(receiver, on_dead)


def receiver_id(receiver):
    """A key that is the same for every bound-method object of one (instance, function) pair."""
    if hasattr(receiver, "__self__") and hasattr(receiver, "__func__"):
        return (id(receiver.__self__), id(receiver.__func__))
    return id(receiver)
