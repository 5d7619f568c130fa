"""A small rich-text document model: paragraphs of text with style marks."""
from dataclasses import dataclass, field


@dataclass
class Mark:
    start: int
    end: int
    style: str


@dataclass
class Paragraph:
    text: str
    marks: list[Mark] = field(default_factory=list)

    def copy(self) -> "Paragraph":
        return Paragraph(self.text, [Mark(m.start, m.end, m.style) for m in self.marks])

    def insert(self, pos: int, text: str) -> None:
        if not 0 <= pos <= len(self.text):
            raise IndexError(f"position {pos} outside paragraph of length {len(self.text)}")
        self.text = self.text[:pos] + text + self.text[pos:]
        for m in self.marks:
            if m.start >= pos:
                m.start += len(text)
            if m.end > pos:
                m.end += len(text)

    def styled(self, style: str) -> list[str]:
        """The pieces of text that carry `style`."""
        return [self.text[m.start : m.end] for m in self.marks if m.style == style]


class Document:
    def __init__(self, paragraphs: list[str]):
        self.paragraphs = [Paragraph(t) for t in paragraphs]

    def texts(self) -> list[str]:
        return [p.text for p in self.paragraphs]

    def split(self, index: int, pos: int) -> None:
        """Break paragraph `index` in two at `pos` (marks are dropped at the cut)."""
        p = self.paragraphs[index]
        head = Paragraph(p.text[:pos], [m for m in p.marks if m.end <= pos])
        tail = Paragraph(p.text[pos:], [Mark(m.start - pos, m.end - pos, m.style) for m in p.marks if m.start >= pos])
        self.paragraphs[index : index + 1] = [head, tail]

    def duplicate(self, index: int) -> None:
        self.paragraphs.insert(index + 1, self.paragraphs[index].copy())

    def delete(self, index: int) -> None:
        del self.paragraphs[index]
