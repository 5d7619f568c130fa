"""Registered players."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Player:
    name: str
    rating: int
    club: str = ""

    def label(self) -> str:
        return f"{self.name} ({self.rating})"
