class ValidationError(ValueError):
    """`messages` maps a field's path to what was wrong with it."""

    def __init__(self, messages):
        if isinstance(messages, str):
            messages = {"_schema": [messages]}
        self.messages = messages
        super().__init__("; ".join(f"{k}: {', '.join(v)}" for k, v in sorted(messages.items())))
