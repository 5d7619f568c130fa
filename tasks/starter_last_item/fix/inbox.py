"""A tiny message inbox."""


class Inbox:
    def __init__(self):
        self.items = []

    def push(self, message):
        self.items.append(message)

    def peek_last(self):
        """The most recently pushed message, or None when empty."""
        if not self.items:
            return None
        return self.items[-1]
