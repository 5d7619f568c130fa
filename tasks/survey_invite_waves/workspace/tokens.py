"""Invite tokens: short codes respondents type or click to open their survey."""
import random
import string

ALPHABET = string.ascii_uppercase + string.digits
TOKEN_LENGTH = 10


def new_invite_token() -> str:
    return "".join(random.choices(ALPHABET, k=TOKEN_LENGTH))


def looks_like_token(text: str) -> bool:
    return len(text) == TOKEN_LENGTH and all(c in ALPHABET for c in text)
