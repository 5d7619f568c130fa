"""KV caches: one growable buffer per decoding sequence, and a radix tree of finished sequences' caches that every
conversation under the same adapter load shares.

Layout. A sequence's keys and values live in ONE tensor `[layers, 2, kv_heads, capacity, head_dim]` (2 = key, value),
of which the first `length` positions are filled. The scheduler sizes `capacity` to prompt + max_tokens when it admits
the sequence, so a buffer never grows while decoding (no per-token torch.cat).

The prefix store (SGLang's RadixAttention, Zheng et al. 2024). Finished sequences' KV is kept in a radix tree of token
spans: a node holds a run of tokens and their keys/values, and a path from the root spells a cached prefix. Every
episode opens with the same system prompt and tool list (~2,000 tokens with the 18 tools), whichever task it is on:
the tree holds that prefix ONCE, each conversation's turns hang below it as one branch (a turn extends the branch of
the turn before), and a GRPO group's samples share the prompt node and differ only in their leaves. A new prompt walks
the tree and copies the matched spans into its own buffer, so a conversation's first turn finds the shared prefix even
when no conversation that computed it is still running. Copying is exact: a token's keys depend on the tokens before
it and its position only, which a shared prefix has in common.

Reuse rule. One tree per `owner`: None for the base model, else the adapter's load id (a key that is new on every
load, see adapters.py), so KV computed by one adapter version is never reused under another, even when a new version
is loaded under the same served name. `stale_kv_tokens` counts tokens reused from a tree or a running sequence whose
owner differs from the request's: the lookup makes this impossible, and the counter proves it in /health.

Budget. The nodes' bytes fit `budget_bytes`; over it, the least recently used LEAF goes first. A lookup or insert
touches every node on its path, so a prefix is always at least as recent as anything below it, and a shared prefix
outlives the conversations that hang below it. A node is split where a new sequence diverges inside it (both halves
are copied out, so each node owns exactly its bytes). Per token SmolLM2-135M holds 30 layers x 2 x 3 heads x 64 x 4
bytes = 46 KB in float32, so a 3,000-token episode is ~138 MB; with the system prompt and tools held once, the
default 2,048 MB keeps ~19 such episodes (~15 if each held its own copy).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
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


@dataclass(eq=False)
class Node:
    """A span of tokens and their KV. The root of an owner's tree holds no tokens."""

    ids: torch.Tensor  # [n] int64
    data: torch.Tensor | None  # [layers, 2, kv_heads, n, head_dim]; None for a root
    parent: Node | None = None
    children: dict[int, Node] = field(default_factory=dict)  # first token of the child's span -> child
    used: int = 0  # the store's clock at the last lookup or insert that went through this node

    @property
    def nbytes(self) -> int:
        return 0 if self.data is None else self.data.numel() * self.data.element_size()


@dataclass
class StoreStats:
    hits: int = 0  # requests that reused at least one token
    misses: int = 0
    evictions: int = 0  # leaves dropped for the budget
    cached_tokens: int = 0  # prompt tokens served from the store or a running sequence, all requests together
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
    roots: dict[str | None, Node] = field(default_factory=dict)
    stats: StoreStats = field(default_factory=StoreStats)
    _clock: int = 0
    _bytes: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)  # /health reads while the scheduler writes

    @property
    def nbytes(self) -> int:
        return self._bytes

    # -- the tree ---------------------------------------------------------------------------------------------------

    def _walk(self, owner: str | None, ids: torch.Tensor, limit: int) -> list[tuple[Node, int]]:
        """The nodes along ids[:limit] in owner's tree, each with how many of its tokens match (only the last may
        match partly)."""
        path: list[tuple[Node, int]] = []
        node, pos = self.roots.get(owner), 0
        while node is not None and pos < limit:
            child = node.children.get(int(ids[pos]))
            if child is None:
                break
            m = min(common_prefix(child.ids, ids[pos:]), limit - pos)
            path.append((child, m))
            pos += m
            if m < len(child.ids):
                break
            node = child
        return path

    def _touch(self, nodes: Sequence[Node]) -> None:
        self._clock += 1
        for node in nodes:
            node.used = self._clock

    def _nodes(self, root: Node) -> Iterator[Node]:
        stack = list(root.children.values())
        while stack:
            node = stack.pop()
            yield node
            stack.extend(node.children.values())

    def _split(self, node: Node, m: int) -> Node:
        """Cut node after its first m tokens; returns the new head (in node's place), node keeps the rest."""
        assert node.parent is not None and node.data is not None and 0 < m < len(node.ids)
        head = Node(node.ids[:m].clone(), node.data[:, :, :, :m].clone(), node.parent, {}, node.used)
        node.parent.children[int(node.ids[0])] = head
        node.ids, node.data, node.parent = node.ids[m:].clone(), node.data[:, :, :, m:].clone(), head
        head.children[int(node.ids[0])] = node
        return head

    def _evict(self) -> None:
        while self._bytes > self.budget_bytes:
            leaves = [n for root in self.roots.values() for n in self._nodes(root) if not n.children]
            if not leaves:
                return
            old = min(leaves, key=lambda n: n.used)
            assert old.parent is not None
            del old.parent.children[int(old.ids[0])]
            self._bytes -= old.nbytes
            self.stats.evictions += 1

    # -- what the scheduler calls -----------------------------------------------------------------------------------

    def match_length(self, owner: str | None, ids: torch.Tensor, limit: int) -> int:
        """How many leading tokens of ids (at most limit) owner's tree holds; touches nothing."""
        with self._lock:
            return sum(m for _, m in self._walk(owner, ids, limit))

    def seed(self, owner: str | None, ids: list[int], capacity: int, enabled: bool = True,
             donors: Sequence[tuple[str | None, list[int], torch.Tensor]] = ()) -> tuple[SequenceKV, int, int]:
        """A new sequence's buffer, with the longest cached prefix of ids (leaving at least one token to run, which
        gives the logits) copied in, from owner's tree or from a running sequence's buffer (`donors`: owner, the
        tokens its buffer holds, the buffer). Returns the buffer, how many tokens it already holds, and how many of
        those came from another adapter load (stale: 0 by construction)."""
        kv = SequenceKV(self.shape.empty(capacity))
        n, stale = 0, 0
        if enabled:
            wanted = torch.tensor(ids, dtype=torch.long)
            limit = len(ids) - 1
            with self._lock:
                path = self._walk(owner, wanted, limit)
                n = sum(m for _, m in path)
                donor, donor_owner = None, None
                for d_owner, d_ids, data in donors:
                    if d_owner != owner:
                        continue
                    m = min(common_prefix(torch.tensor(d_ids, dtype=torch.long), wanted), limit)
                    if m > n:
                        donor, donor_owner, n = data, d_owner, m
                if donor is not None:
                    kv.data[:, :, :, :n] = donor[:, :, :, :n]
                    stale = n if donor_owner != owner else 0  # the donors were filtered by owner above
                else:
                    pos = 0
                    for node, m in path:
                        assert node.data is not None
                        kv.data[:, :, :, pos : pos + m] = node.data[:, :, :, :m]
                        pos += m
                    self._touch([node for node, _ in path])
            kv.length = n
        with self._lock:
            if n:
                self.stats.hits += 1
            else:
                self.stats.misses += 1
            self.stats.cached_tokens += n
            self.stats.prefilled_tokens += len(ids) - n
            self.stats.stale_kv_tokens += stale
        return kv, n, stale

    def put(self, owner: str | None, ids: list[int], kv: SequenceKV) -> None:
        """Keep a finished sequence's cache (the first len(ids) positions) for later turns and other conversations:
        only the tokens the tree does not hold yet are copied in."""
        n = min(len(ids), kv.length)
        if n == 0:
            return
        wanted = torch.tensor(ids[:n], dtype=torch.long)
        with self._lock:
            root = self.roots.setdefault(owner, Node(torch.empty(0, dtype=torch.long), None))
            path = self._walk(owner, wanted, n)
            pos = sum(m for _, m in path)
            if (n - pos) * self.shape.bytes_per_token() > self.budget_bytes:
                return  # the new part alone does not fit
            nodes = [node for node, _ in path]
            parent = root
            if path:
                last, m = path[-1]
                if m < len(last.ids):
                    if pos == n:  # ids end inside an existing span: nothing new to keep
                        self._touch(nodes)
                        return
                    last = self._split(last, m)
                    nodes[-1] = last
                parent = last
            if pos < n:
                leaf = Node(wanted[pos:].clone(), kv.data[:, :, :, pos:n].clone(), parent)
                parent.children[int(wanted[pos])] = leaf
                self._bytes += leaf.nbytes
                nodes.append(leaf)
            self._touch(nodes)
            self._evict()

    def drop_owner(self, owner: str) -> None:
        """Forget an unloaded adapter's tree (it can never match again)."""
        with self._lock:
            root = self.roots.pop(owner, None)
            if root is not None:
                self._bytes -= sum(n.nbytes for n in self._nodes(root))

    def owners(self) -> list[str | None]:
        with self._lock:
            return [o for o, root in self.roots.items() if root.children]

    def health(self) -> dict:
        """entries: cached sequences (leaves); tokens: tokens held; sequence_tokens: tokens the leaves spell together,
        what a store of one copy per sequence would hold (the difference is the shared prefixes)."""
        with self._lock:
            nodes = [(n, d) for root in self.roots.values() for n, d in self._depths(root)]
            return {"entries": sum(1 for n, _ in nodes if not n.children), "nodes": len(nodes),
                    "tokens": sum(len(n.ids) for n, _ in nodes),
                    "sequence_tokens": sum(d for n, d in nodes if not n.children),
                    "bytes": self._bytes, "budget_bytes": self.budget_bytes, **vars(self.stats)}

    def _depths(self, root: Node) -> Iterator[tuple[Node, int]]:
        stack = [(c, len(c.ids)) for c in root.children.values()]
        while stack:
            node, depth = stack.pop()
            yield node, depth
            stack.extend((c, depth + len(c.ids)) for c in node.children.values())
