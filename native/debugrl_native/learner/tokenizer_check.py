"""Does the learner's tokenizer agree with the inference server's? Checked at start-up, before any rollout.

Token in, token out: the learner trains on the ids the server sampled and scores them with its own model, so the two
must mean the same thing by every id. Three facts are compared, each of which has differed in practice between a
served model and a checkpoint directory that "is the same model":
- the vocabulary size (`len(tokenizer)`, added tokens included), and that every server id has an embedding row;
- the special tokens, text -> id (an `<|im_end|>` at another id ends turns somewhere else);
- the chat template: a fixed conversation (protocol.PROBE_CONVERSATION) rendered and tokenized, compared id by id
  with the server's own ids for it, which catches a template that differs in one newline.

A mismatch raises `TokenizerMismatch` listing every difference.
"""

from __future__ import annotations

from pathlib import Path

from .config import GgufSource, HfDirectorySource, ModelSource
from .protocol import ChatMessage, ServingFacts


class TokenizerMismatch(ValueError):
    """The learner's tokenizer or chat template differs from the inference server's."""


def special_tokens_of(tokenizer) -> dict[str, int]:
    """Every special token's text -> id: the named ones (bos/eos/pad/...) and added tokens marked special."""
    out = {t: int(tokenizer.convert_tokens_to_ids(t)) for t in tokenizer.all_special_tokens}
    for i, tok in getattr(tokenizer, "added_tokens_decoder", {}).items():
        if getattr(tok, "special", False):
            out[str(tok)] = int(i)
    return out


def render_ids(tokenizer, messages: list[ChatMessage]) -> list[int]:
    """The chat template's text for `messages` (no generation prompt), tokenized as a server does: no extra specials."""
    text = tokenizer.apply_chat_template([m.model_dump() for m in messages], tokenize=False,
                                         add_generation_prompt=False)
    return list(tokenizer(text, add_special_tokens=False)["input_ids"])


def serving_facts_of(tokenizer, messages: list[ChatMessage] | None = None) -> ServingFacts:
    """The facts a server holding `tokenizer` reports (the embedded server's, and the tests')."""
    facts = ServingFacts(vocab_size=len(tokenizer), special_tokens=special_tokens_of(tokenizer))
    msgs = facts.chat_messages if messages is None else messages
    return facts.model_copy(update={"chat_messages": msgs, "chat_token_ids": render_ids(tokenizer, msgs)})


def _tok(tokenizer, i: int) -> str:
    return repr(tokenizer.convert_ids_to_tokens(i)) if 0 <= i < len(tokenizer) else "(outside the vocabulary)"


def differences(tokenizer, facts: ServingFacts, model_vocab_size: int) -> list[str]:
    """Every way the learner's tokenizer differs from the server's facts; empty when they agree."""
    out: list[str] = []
    n = len(tokenizer)
    if facts.vocab_size is not None and n != facts.vocab_size:
        out.append(f"vocabulary size: the learner's tokenizer has {n} tokens, the server's {facts.vocab_size}")
    top = facts.vocab_size if facts.vocab_size is not None else 1 + max([*facts.special_tokens.values(),
                                                                          *(facts.chat_token_ids or [])], default=-1)
    if top > model_vocab_size:
        out.append(f"the server's {top} token ids do not all have a row in the model's {model_vocab_size}-row embedding")
    mine, theirs = special_tokens_of(tokenizer), facts.special_tokens
    bad = [f"{t!r} is {mine.get(t, 'absent')} here, {theirs.get(t, 'absent')} at the server"
           for t in sorted(set(mine) | set(theirs)) if mine.get(t) != theirs.get(t)]
    if bad:
        out.append(f"special tokens differ ({len(bad)}): " + "; ".join(bad[:5]))
    if facts.chat_token_ids is not None:
        ids, want = render_ids(tokenizer, facts.chat_messages), facts.chat_token_ids
        if ids != want:
            at = next((i for i, (a, b) in enumerate(zip(ids, want)) if a != b), min(len(ids), len(want)))
            here = f"{ids[at]} {_tok(tokenizer, ids[at])}" if at < len(ids) else "the end"
            there = f"{want[at]}" if at < len(want) else "the end"
            out.append(f"chat template: the fixed conversation renders to {len(ids)} ids here and {len(want)} at the "
                       f"server, first different at position {at} (here {here}, at the server {there})")
    return out


def check_tokenizer_agrees(tokenizer, facts: ServingFacts, model_vocab_size: int, where: str = "the model") -> None:
    diffs = differences(tokenizer, facts, model_vocab_size)
    if diffs:
        raise TokenizerMismatch(f"the learner's tokenizer (from {where}) disagrees with the inference server's: "
                                + " | ".join(diffs))


def learner_tokenizer(source: ModelSource) -> tuple[object, int, str]:
    """(tokenizer, model vocab size, where it came from) for a model source that carries a tokenizer."""
    if isinstance(source, HfDirectorySource):
        from .families import load_tokenizer, read_checkpoint

        ckpt = read_checkpoint(source.path)
        return load_tokenizer(ckpt.path), ckpt.vocab_size, str(ckpt.path)
    if isinstance(source, GgufSource):
        from transformers import AutoConfig, AutoTokenizer

        path = Path(source.path)
        tok = AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name, local_files_only=True)
        cfg = AutoConfig.from_pretrained(str(path.parent), gguf_file=path.name, local_files_only=True)
        return tok, int(cfg.vocab_size), str(path)
    raise TokenizerMismatch(f"the server's tokenizer facts were given, but the model source {source.kind!r} has no "
                            "tokenizer to check them against (use an hf_directory or gguf model)")


def check_serving(source: ModelSource, facts: ServingFacts) -> None:
    """The service's start-up check: load the source's tokenizer and compare it with the server's facts."""
    tokenizer, vocab, where = learner_tokenizer(source)
    check_tokenizer_agrees(tokenizer, facts, vocab, where)


def main(argv: list[str] | None = None) -> None:
    """The CLI's start-up check, before any rollout:

        python -m debugrl_native.learner.tokenizer_check probe               # the fixed conversation, as JSON
        python -m debugrl_native.learner.tokenizer_check check DIR < facts   # ServingFacts JSON on stdin

    `check` prints the checkpoint's family when the tokenizer in DIR agrees with the server's facts; otherwise the
    differences on stderr, exit status 2."""
    import json
    import sys

    from .protocol import PROBE_CONVERSATION

    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["probe"]:
        print(json.dumps([m.model_dump() for m in PROBE_CONVERSATION]))
        return
    if len(args) != 2 or args[0] != "check":
        print("usage: python -m debugrl_native.learner.tokenizer_check probe | check <model directory> < facts.json",
              file=sys.stderr)
        sys.exit(2)
    from .families import UnsupportedCheckpoint

    try:
        facts = ServingFacts.model_validate_json(sys.stdin.read())
        check_serving(HfDirectorySource(path=Path(args[1])), facts)
    except (TokenizerMismatch, UnsupportedCheckpoint, ValueError) as e:
        print(str(e).replace("\n", " "), file=sys.stderr)
        sys.exit(2)
    print("agree")


if __name__ == "__main__":
    main()
