"""The bytes each token id stands for, which constrained decoding needs to test candidates without decoding strings.

SmolLM2 uses a byte-level BPE (GPT-2 style): each of the 256 byte values is written as one printable unicode character
in the vocabulary, so a token's bytes are recovered by mapping its characters back. Added tokens (<|im_start|>,
<|im_end|>, ...) have no byte meaning here and are never allowed inside a constrained tool call.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property


def byte_level_alphabet() -> dict[str, int]:
    """Character -> byte for the byte-level BPE alphabet: printable Latin-1 bytes stand for themselves, the other
    bytes are shifted to code points 256 and up, in byte order."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAC + 1)) + list(range(0xAE, 0xFF + 1))
    table: dict[str, int] = {chr(b): b for b in printable}
    shifted = 0
    for b in range(256):
        if b not in table.values():
            table[chr(256 + shifted)] = b
            shifted += 1
    return table


@dataclass
class Vocab:
    token_bytes: list[bytes | None]  # None for added/special tokens
    by_bytes: dict[bytes, list[int]]  # bytes -> the token ids spelling exactly them
    eos_ids: frozenset[int]  # ids that end a reply

    @classmethod
    def from_tokenizer(cls, tokenizer) -> Vocab:
        alphabet = byte_level_alphabet()
        special = set(tokenizer.get_added_vocab().values()) | set(tokenizer.all_special_ids)
        pieces = tokenizer.convert_ids_to_tokens(list(range(len(tokenizer))))
        token_bytes: list[bytes | None] = []
        for i, piece in enumerate(pieces):
            if i in special or piece is None:
                token_bytes.append(None)
            elif all(ch in alphabet for ch in piece):
                token_bytes.append(bytes(alphabet[ch] for ch in piece))
            else:  # not a byte-level piece (another tokenizer family): fall back to its decoded text
                token_bytes.append(tokenizer.decode([i]).encode("utf-8"))
        by_bytes: dict[bytes, list[int]] = {}
        for i, b in enumerate(token_bytes):
            if b:
                by_bytes.setdefault(b, []).append(i)
        eos = {tokenizer.eos_token_id}
        for name in ("<|im_end|>", "<|endoftext|>"):
            tid = tokenizer.convert_tokens_to_ids(name)
            if isinstance(tid, int) and tid != tokenizer.unk_token_id:
                eos.add(tid)
        return cls(token_bytes, by_bytes, frozenset(t for t in eos if t is not None))

    @cached_property
    def by_first_byte(self) -> list[list[int]]:
        """byte -> the token ids whose bytes start with it (for listing the tokens that start with a given text)."""
        table: list[list[int]] = [[] for _ in range(256)]
        for i, b in enumerate(self.token_bytes):
            if b:
                table[b[0]].append(i)
        return table

    def text(self, token_id: int, tokenizer) -> str:
        b = self.token_bytes[token_id]
        return tokenizer.decode([token_id]) if b is None else b.decode("utf-8", errors="replace")
