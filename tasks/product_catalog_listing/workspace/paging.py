"""Offset pagination shared by every listing endpoint."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Page:
    items: list
    number: int
    size: int
    total_items: int
    total_pages: int

    @property
    def has_next(self):
        return self.number < self.total_pages

    @property
    def has_previous(self):
        return self.number > 1


def page_count(total_items, size):
    """How many pages a listing of `total_items` needs at `size` items per page (at least one)."""
    if size < 1:
        raise ValueError("page size must be positive")
    return max(1, total_items // size)


def paginate(items, number, size):
    """Page `number` (1-based) of `items`. Asking past the end gives an empty page, not an error."""
    if number < 1:
        raise ValueError("page numbers start at 1")
    total_pages = page_count(len(items), size)
    start = (number - 1) * size
    window = items[start:start + size] if number <= total_pages else []
    return Page(items=window, number=number, size=size, total_items=len(items), total_pages=total_pages)
