class ValidationError(ValueError):
    """Raised by Schema.load with every problem found, keyed by field name."""

    def __init__(self, messages, valid_data=None):
        if isinstance(messages, str):
            messages = {"_schema": [messages]}
        super().__init__(messages)
        self.messages = messages
        self.valid_data = valid_data or {}

    def __str__(self):
        parts = []
        for name, problems in sorted(self.messages.items()):
            if isinstance(problems, dict):
                problems = [f"{k}: {v}" for k, v in sorted(problems.items())]
            parts.append(f"{name}: {'; '.join(map(str, problems))}")
        return ", ".join(parts)


class FieldError(ValueError):
    """Raised by a field's deserialize; the schema turns it into a ValidationError entry."""
