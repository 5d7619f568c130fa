class CodecError(ValueError):
    pass


class EncodeError(CodecError):
    def __init__(self, value, path):
        super().__init__(f"cannot encode {type(value).__name__} at {path or '<root>'}")
        self.value = value
        self.path = path


class DecodeError(CodecError):
    def __init__(self, message, path=""):
        super().__init__(f"{message} at {path or '<root>'}")
        self.path = path
