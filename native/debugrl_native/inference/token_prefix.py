"""Token in, all the way (issue 22): the next prompt as the previous turn's ids, so a chain never breaks.

A multi-turn client that sends messages has the server render the whole conversation again every turn. The
re-rendered reply is not always the ids the model produced: tool-call arguments come back re-serialised without the
model's spacing, and text the model spelled with one split of tokens is tokenized with another. The learner then sees
a prompt that does not extend the previous turn's prompt and completion (common/token-chain.ts counts these breaks).

With `prefix_token_ids` (the previous prompt ids followed by its completion ids) and `prefix_message_index` (the
assistant message they end with), the server keeps those ids as they are and appends only what the template renders
after that message: the rest of its end of turn, the new messages, and the generation prompt. That text is cut from
the full rendering at the message boundary: the covered assistant message's content is replaced by a sentinel and
everything after the sentinel is the suffix. Nothing of the covered part is compared or re-tokenized, so a template
that renders earlier messages differently once more follow (the covered rendering is not a prefix of the full one)
splices just as exactly.

The end of turn: the template closes an assistant message with its end-of-turn text (SmolLM2: `<|im_end|>\\n`). A
reply that stopped on its own ends with the end-of-turn token, which is then already in the prefix and is not added
again; a reply cut by max_tokens does not, and the server closes the turn for it. Either way the prompt is what a
conversation that was never re-rendered would hold.
"""

from __future__ import annotations

from collections.abc import Callable

# Stands in for the covered assistant message's content; private-use characters no conversation or template holds.
SENTINEL = "\ue000debugrl-prefix-end\ue000"


class SpliceError(ValueError):
    """The chat template hides the content of an assistant message, so there is no boundary to cut at."""


def covered_pairs(to_pairs: Callable[[list[dict]], list[dict]], messages: list[dict], index: int) -> int:
    """How many template pairs (role/content, after tool_format.template_messages) the messages up to and including
    `index` become. Pairs are built in message order and an assistant message never merges with its neighbours, so
    these are the first pairs of the whole conversation's, the last of them the assistant message."""
    return len(to_pairs(messages[: index + 1]))


def suffix_text(render: Callable[[list[dict]], str], pairs: list[dict], covered: int) -> str:
    """What the template renders after the content of pair `covered - 1` (the prefix's assistant message), with
    the generation prompt: `render(pairs)` must render with it. Raises SpliceError if the content is not shown."""
    marked = [*pairs[: covered - 1], {**pairs[covered - 1], "content": SENTINEL}, *pairs[covered:]]
    text = render(marked)
    at = text.rfind(SENTINEL)
    if at < 0:
        raise SpliceError("the chat template does not show an assistant message's content as it is")
    return text[at + len(SENTINEL):]


def without_closed_turn(suffix: str, last_id: int, end_of_turn: dict[int, str]) -> str:
    """The suffix less the end-of-turn text the prefix already holds: when the prefix's last id ends a reply
    (`end_of_turn`: id -> its text) and the suffix starts with that text, the model wrote it and it stays the
    model's token; otherwise the whole close is the server's to add."""
    done = end_of_turn.get(last_id)
    return suffix[len(done):] if done and suffix.startswith(done) else suffix


def first_unknown_id(ids: list[int], vocab_size: int) -> int | None:
    """The position of the first id outside [0, vocab_size), or None."""
    return next((i for i, t in enumerate(ids) if not 0 <= t < vocab_size), None)
