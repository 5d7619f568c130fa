"""Cache keys built from call arguments."""


class _HashedTuple(tuple):
    """A tuple that caches its hash: keys are hashed once per lookup and once per insert."""

    _hash = None

    def __hash__(self):
        if self._hash is None:
            self._hash = tuple.__hash__(self)
        return self._hash


_KW_MARK = (object(),)


def hashkey(*args, **kwargs):
    if kwargs:
        return _HashedTuple(args + _KW_MARK + tuple(sorted(kwargs.items())))
    return _HashedTuple(args)


def typedkey(*args, **kwargs):
    """Like hashkey, but 1 and 1.0 are different keys."""
    key = hashkey(*args, **kwargs)
    return _HashedTuple(key + tuple(type(v) for v in args) + tuple(type(v) for _, v in sorted(kwargs.items())))
