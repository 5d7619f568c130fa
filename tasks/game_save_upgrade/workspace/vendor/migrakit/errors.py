class MigrationError(ValueError):
    """A document that cannot be upgraded: no version, a gap in the steps, or a step that failed."""


class TooNew(MigrationError):
    """The document was written by a newer program than this one."""
