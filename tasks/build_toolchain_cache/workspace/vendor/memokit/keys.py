class HashedKey(tuple):
    """A tuple that hashes once; used as the key of a memoized call."""

    __slots__ = ()

    def __hash__(self):
        try:
            return self._hash
        except AttributeError:
            pass
        return tuple.__hash__(self)

    def __repr__(self):
        return f"key{tuple.__repr__(self)}"


_KWMARK = ("__kw__",)


def hashkey(*args, **kwargs):
    """The default key: positional arguments, then keyword arguments in sorted order."""
    if kwargs:
        return HashedKey(args + _KWMARK + tuple(sorted(kwargs.items())))
    return HashedKey(args)


def typedkey(*args, **kwargs):
    """Like hashkey, but 1 and 1.0 give different keys."""
    key = hashkey(*args, **kwargs)
    return HashedKey(tuple(key) + tuple(type(v).__name__ for v in args) + tuple(type(v).__name__ for _, v in sorted(kwargs.items())))
