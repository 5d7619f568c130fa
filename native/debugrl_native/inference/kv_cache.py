"""KV caches: one growable buffer per decoding sequence, and an LRU store of finished conversations' caches.

Layout. A sequence's keys and values live in ONE tensor `[layers, 2, kv_heads, capacity, head_dim]` (2 = key, value),
of which the first `length` positions are filled. The scheduler sizes `capacity` to prompt + max_tokens when it admits
the sequence, so a buffer never grows while decoding (no per-token torch.cat).

Reuse rule. An entry is found only under the same `owner`: None for the base model, else the adapter's load id (a
key that is new on every load, see adapters.py), so KV computed by one adapter version is never reused under
another, even when a new version is loaded under the same served name. Among that owner's entries the one sharing the
longest exact token prefix with the new prompt wins; its first `p` positions are copied into the new sequence's
buffer (an entry is never shared mutably, so one conversation's cache can seed several sequences at once, e.g. the
8 samples of a GRPO group). `stale_kv_tokens` counts tokens reused from an entry whose owner differs from the
request's: the lookup makes this impossible, and the counter proves it in /health.

Budget. Entries are kept while their bytes (the trimmed tensors) fit `budget_bytes`; the least recently used go
first. Storing a conversation drops the shorter entries of the same owner that it extends, and the entry its prompt
was seeded from (`replaces`): an episode keeps one entry, its latest turn, even when the client's re-rendered reply
tokenises differently from the sampled tokens (the old entry then differs from the new one inside that reply). Per token SmolLM2-135M holds 30 layers x 2 x 3 heads x 64 x 4 bytes = 46 KB in
float32, so a 3,000-token episode is ~138 MB and the default 2,048 MB keeps ~15 episodes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field

import torch

DEFAULT_KV_CACHE_MB = 2048


@dataclass
class KVShape:
    layers: int
    kv_heads: int
    head_dim: int
    dtype: torch.dtype

    @classmethod
    def of(cls, config, dtype: torch.dtype) -> KVShape:
        heads = config.num_attention_heads
        head_dim = getattr(config, "head_dim", None) or config.hidden_size // heads
        return cls(config.num_hidden_layers, getattr(config, "num_key_value_heads", None) or heads, head_dim, dtype)

    def bytes_per_token(self) -> int:
        return self.layers * 2 * self.kv_heads * self.head_dim * torch.empty((), dtype=self.dtype).element_size()

    def empty(self, capacity: int) -> torch.Tensor:
        return torch.empty(self.layers, 2, self.kv_heads, capacity, self.head_dim, dtype=self.dtype)


@dataclass
class SequenceKV:
    """One sequence's cache: `data[:, :, :, :length]` is filled."""

    data: torch.Tensor
    length: int = 0

    @property
    def capacity(self) -> int:
        return self.data.shape[3]


@dataclass
class Entry:
    owner: str | None
    ids: torch.Tensor  # [length] int64: the tokens whose KV `data` holds
    data: torch.Tensor  # [layers, 2, kv_heads, length, head_dim]

    @property
    def nbytes(self) -> int:
        return self.data.numel() * self.data.element_size()


@dataclass
class StoreStats:
    hits: int = 0  # requests that reused at least one token
    misses: int = 0
    evictions: int = 0
    cached_tokens: int = 0  # prompt tokens served from the store, all requests together
    prefilled_tokens: int = 0
    stale_kv_tokens: int = 0  # tokens reused across adapter versions: 0 by construction


def common_prefix(a: torch.Tensor, b: torch.Tensor) -> int:
    n = min(len(a), len(b))
    if n == 0:
        return 0
    diff = torch.nonzero(a[:n] != b[:n])
    return int(diff[0, 0]) if len(diff) else n


@dataclass
class KVStore:
    shape: KVShape
    budget_bytes: int
    entries: OrderedDict[int, Entry] = field(default_factory=OrderedDict)  # oldest first
    stats: StoreStats = field(default_factory=StoreStats)
    _next: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)  # /health reads while the scheduler writes

    @property
    def nbytes(self) -> int:
        return sum(e.nbytes for e in self.entries.values())

    def longest_prefix(self, owner: str | None, ids: torch.Tensor, limit: int,
                       touch: bool = True) -> tuple[Entry | None, int, int | None]:
        """The entry of `owner` sharing the longest exact prefix with ids (at most `limit` tokens), and that length.
        Marks it most recently used (unless touch is False). Also returns the entry's key."""
        best, best_n, best_key = None, 0, None
        with self._lock:
            for key, e in self.entries.items():
                if e.owner != owner:
                    continue
                n = min(common_prefix(e.ids, ids), limit)
                if n > best_n:
                    best, best_n, best_key = e, n, key
            if best_key is not None and touch:
                self.entries.move_to_end(best_key)
        return best, best_n, best_key

    def seed(self, owner: str | None, ids: list[int], capacity: int, enabled: bool = True,
             donors: list[tuple[str | None, list[int], torch.Tensor]] = ()) -> tuple[SequenceKV, int, int, int | None]:
        """A new sequence's buffer, with the longest cached prefix of ids (leaving at least one token to run, which
        gives the logits) copied in, from a stored entry or from a running sequence's buffer (`donors`: owner, the
        tokens its buffer holds, the buffer). Returns the buffer, how many tokens it already holds, and how many of
        those came from another adapter load (stale: 0 by construction), and the key of the entry used (None when
        none was, or a donor was)."""
        kv = SequenceKV(self.shape.empty(capacity))
        source, source_owner, n, stale, key = None, None, 0, 0, None
        if enabled:
            wanted = torch.tensor(ids, dtype=torch.long)
            entry, n, key = self.longest_prefix(owner, wanted, len(ids) - 1)
            if entry is not None:
                source, source_owner = entry.data, entry.owner
            for donor_owner, donor_ids, data in donors:
                if donor_owner != owner:
                    continue
                m = min(common_prefix(torch.tensor(donor_ids, dtype=torch.long), wanted), len(ids) - 1)
                if m > n:
                    source, source_owner, n, key = data, donor_owner, m, None
        if source is not None and n > 0:
            kv.data[:, :, :, :n] = source[:, :, :, :n]
            kv.length = n
            stale = n if source_owner != owner else 0  # both lookups above filter by owner
        else:
            n, key = 0, None
        with self._lock:
            if n:
                self.stats.hits += 1
            else:
                self.stats.misses += 1
            self.stats.cached_tokens += n
            self.stats.prefilled_tokens += len(ids) - n
            self.stats.stale_kv_tokens += stale
        return kv, n, stale, key

    def put(self, owner: str | None, ids: list[int], kv: SequenceKV, replaces: int | None = None) -> None:
        """Keep a finished sequence's cache (the first len(ids) positions) for later turns."""
        n = min(len(ids), kv.length)
        if n == 0:
            return
        data = kv.data[:, :, :, :n].clone()  # trimmed: the store never holds unused capacity
        entry = Entry(owner, torch.tensor(ids[:n], dtype=torch.long), data)
        if entry.nbytes > self.budget_bytes:
            return
        with self._lock:
            for key in [k for k, e in self.entries.items() if e.owner == owner and len(e.ids) <= n and (
                    common_prefix(e.ids, entry.ids) == len(e.ids) or k == replaces)]:
                del self.entries[key]  # the new entry extends it, or is the next turn of the same conversation
            self.entries[self._next] = entry
            self._next += 1
            total = sum(e.nbytes for e in self.entries.values())
            while total > self.budget_bytes:
                _, old = self.entries.popitem(last=False)
                total -= old.nbytes
                self.stats.evictions += 1

    def drop_owner(self, owner: str) -> None:
        """Forget an unloaded adapter's entries (they can never match again)."""
        with self._lock:
            for key in [k for k, e in self.entries.items() if e.owner == owner]:
                del self.entries[key]

    def health(self) -> dict:
        with self._lock:
            return {"entries": len(self.entries), "bytes": sum(e.nbytes for e in self.entries.values()),
                    "budget_bytes": self.budget_bytes, **vars(self.stats)}
