"""Transit card numbers."""
import re

_CARD = re.compile(r"^TC-\d{8}$")


def check_card_id(card_id):
    if not isinstance(card_id, str) or not _CARD.match(card_id):
        raise ValueError(f"card ids look like TC-12345678, got {card_id!r}")
    return card_id
