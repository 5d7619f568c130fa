MAX_CODE = 63


class ExtRegistry:
    """Extension types: a class is encoded with its code, and a code is decoded with its decoder.

    Registering a code again replaces its decoder, so an application can override a library's type;
    the registry keeps the history in `replaced` for diagnostics.
    """

    def __init__(self):
        self._by_class = {}
        self._by_code = {}
        self.replaced = []

    def register(self, code, cls, encode, decode):
        if not isinstance(code, int) or not 0 <= code <= MAX_CODE:
            raise ValueError(f"extension codes are integers in 0..{MAX_CODE}, got {code!r}")
        if code in self._by_code:
            self.replaced.append((code, self._by_code[code][0], cls))
        self._by_class[cls] = (code, encode)
        self._by_code[code] = (cls, decode)

    def encoder_for(self, value):
        for klass in type(value).__mro__:
            if klass in self._by_class:
                return self._by_class[klass]
        return None

    def decoder_for(self, code):
        entry = self._by_code.get(code)
        return entry[1] if entry else None

    def codes(self):
        return {code: cls.__name__ for code, (cls, _) in sorted(self._by_code.items())}


default_registry = ExtRegistry()
