"""Documents and the editor that drives the hooks."""
from dataclasses import dataclass


@dataclass
class Document:
    path: str
    text: str = ""
    revision: int = 0
    saved_text: str = ""

    @property
    def dirty(self):
        return self.text != self.saved_text


class Editor:
    def __init__(self, manager):
        self.manager = manager
        self.open_documents = {}

    @property
    def hooks(self):
        return self.manager.registry

    def open(self, path, text=""):
        doc = Document(path, text, 0, text)
        self.open_documents[path] = doc
        self.hooks.emit("open", doc)
        return doc

    def type(self, path, more):
        doc = self.open_documents[path]
        doc.text += more
        doc.revision += 1
        self.hooks.emit("edit", doc)
        return doc

    def save(self, path):
        doc = self.open_documents[path]
        doc.saved_text = doc.text
        self.hooks.emit("save", doc)

    def close(self, path):
        doc = self.open_documents.pop(path)
        self.hooks.emit("close", doc)
        return doc

    def dirty_documents(self):
        return sorted(path for path, doc in self.open_documents.items() if doc.dirty)
