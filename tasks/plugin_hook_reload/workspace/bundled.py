"""Plugins that ship with the editor."""
from plugins import Plugin


class AuditTrail(Plugin):
    name = "audit"
    version = "1.2"

    def __init__(self, settings=None):
        super().__init__(settings)
        self.entries = []

    def on_save(self, document):
        self.entries.append(("save", document.path, document.revision))

    def on_close(self, document):
        self.entries.append(("close", document.path, document.revision))


class WordCount(Plugin):
    name = "wordcount"
    version = "0.9"

    def __init__(self, settings=None):
        super().__init__(settings)
        self.counts = {}

    def on_edit(self, document):
        self.counts[document.path] = len(document.text.split())


class Autosave(Plugin):
    name = "autosave"
    version = "2.0"

    def __init__(self, settings=None):
        super().__init__(settings)
        self.every = int(self.settings.get("every", 3))
        self.saved = []

    def on_edit(self, document):
        if document.revision % self.every == 0:
            document.saved_text = document.text
            self.saved.append((document.path, document.revision))


class Spellcheck(Plugin):
    name = "spellcheck"
    version = "0.4"

    def __init__(self, settings=None):
        super().__init__(settings)
        self.dictionary = {w.lower() for w in self.settings.get("words", ())}
        self.flagged = {}

    def on_edit(self, document):
        words = [w.strip(".,;:!?").lower() for w in document.text.split()]
        self.flagged[document.path] = sorted({w for w in words if w and w not in self.dictionary})

    def on_close(self, document):
        self.flagged.pop(document.path, None)


BUNDLED = {cls.name: cls for cls in (AuditTrail, WordCount, Autosave, Spellcheck)}
