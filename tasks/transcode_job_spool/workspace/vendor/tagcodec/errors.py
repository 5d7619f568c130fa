class CodecError(ValueError):
    """A value that cannot be encoded, or a document that cannot be decoded."""


class UnknownTag(CodecError):
    pass
