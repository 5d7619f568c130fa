"""The start-up check that the learner's tokenizer agrees with the inference server's, with two different tiny
tokenizers: each kind of difference is named, and agreement passes."""

import pytest

from debugrl_native.learner.config import HfDirectorySource, LearnerConfig, TinyQwen3MoeSource
from debugrl_native.learner.protocol import ServingFacts
from debugrl_native.learner.tokenizer_check import (
    TokenizerMismatch,
    check_serving,
    check_tokenizer_agrees,
    serving_facts_of,
)
from tiny_checkpoints import CHATML, CORPUS, SPECIALS, tiny_tokenizer, write_checkpoint


@pytest.fixture(scope="module")
def tok():
    return tiny_tokenizer()


def test_the_same_tokenizer_agrees(tok):
    facts = serving_facts_of(tok)
    assert facts.chat_token_ids and facts.special_tokens["<|im_end|>"] == tok.convert_tokens_to_ids("<|im_end|>")
    check_tokenizer_agrees(tiny_tokenizer(), facts, model_vocab_size=300)


def test_another_vocabulary_is_named(tok):
    other = tiny_tokenizer(vocab_size=320)
    with pytest.raises(TokenizerMismatch, match=r"vocabulary size: the learner's tokenizer has 300 tokens, the server's 320"
                       r".*do not all have a row in the model's 300-row embedding.*chat template"):
        check_tokenizer_agrees(tok, serving_facts_of(other), model_vocab_size=300)


def test_a_special_token_at_another_id_is_named(tok):
    other = tiny_tokenizer(specials=["<|im_start|>", "<|endoftext|>", "<|im_end|>"])  # same tokens, other order
    with pytest.raises(TokenizerMismatch, match=r"special tokens differ.*'<\|endoftext\|>' is 0 here, 1 at the server"):
        check_tokenizer_agrees(tok, serving_facts_of(other), model_vocab_size=300)


def test_a_chat_template_one_newline_apart_is_named_with_its_position(tok):
    other = tiny_tokenizer(template=CHATML.replace("<|im_end|>\n", "<|im_end|>\n\n"))
    facts = serving_facts_of(other)
    with pytest.raises(TokenizerMismatch, match=r"chat template: .*first different at position \d+") as e:
        check_tokenizer_agrees(tok, facts, model_vocab_size=300)
    assert "vocabulary" not in str(e.value) and "special" not in str(e.value)  # only what differs is named


def test_a_differently_trained_tokenizer_of_the_same_size_differs_in_the_template_ids(tok):
    other = tiny_tokenizer(corpus=[c.upper() for c in CORPUS])
    with pytest.raises(TokenizerMismatch, match="chat template"):
        check_tokenizer_agrees(tok, serving_facts_of(other), model_vocab_size=300)


def test_the_service_check_reads_the_directory_and_refuses_before_loading(tmp_path, tok):
    path = write_checkpoint(tmp_path / "m", "qwen3", tok)
    check_serving(HfDirectorySource(path=path), serving_facts_of(tok))
    facts = serving_facts_of(tiny_tokenizer(vocab_size=320))
    with pytest.raises(TokenizerMismatch, match=f"from {path}"):
        check_serving(HfDirectorySource(path=path), facts)
    # the facts travel in the learner's config, as the TypeScript side writes it
    cfg = LearnerConfig.model_validate_json(LearnerConfig(model=HfDirectorySource(path=path), serving=facts)
                                            .model_dump_json())
    assert cfg.serving == facts
    with pytest.raises(TokenizerMismatch, match="has no tokenizer"):
        check_serving(TinyQwen3MoeSource(), facts)


def test_serving_facts_are_validated(tok):
    with pytest.raises(ValueError):
        ServingFacts(vocab_size=0, special_tokens={})
    assert SPECIALS[0] in serving_facts_of(tok).special_tokens
