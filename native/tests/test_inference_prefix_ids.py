"""Token in (token_prefix.py): with `prefix_token_ids` the prompt is the previous turn's prompt and completion ids as
they are, followed by the rendering of what came after them. The oracles are ChatML written out by hand (SmolLM2's
template: `<|im_start|>{role}\\n{content}<|im_end|>\\n`) and the server's own rendering of a conversation whose ids
were never re-rendered; the tiny random model and the real SmolLM2 tokenizer, as in the other inference tests."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from debugrl_native.inference.engine import Engine, RequestError
from debugrl_native.inference.models import build_tiny_random
from debugrl_native.inference.protocol import ChatRequest
from test_inference_server import MESSAGES, TOOLS

SYSTEM, USER = MESSAGES[0], MESSAGES[1]
RESULT = "def add(a, b):\n    return a - b\n"
# The observation after the reply, as ChatML renders it (tool_format.py: a tool result is a user turn), then the
# generation prompt. The end of the reply's turn (`<|im_end|>`) precedes it.
AFTER_REPLY = f"\n<|im_start|>user\n<tool_response>\n{RESULT}\n</tool_response><|im_end|>\n<|im_start|>assistant\n"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(build_tiny_random())


def request(messages: list[dict], **extra) -> ChatRequest:
    return ChatRequest.model_validate({"messages": messages, "tools": TOOLS, "tool_choice": "required",
                                       "max_tokens": 48, "seed": 5, "return_token_ids": True, **extra})


def call_message(arguments: str) -> dict:
    return {"role": "assistant", "content": None,
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "read_file", "arguments": arguments}}]}


def tool_result() -> dict:
    return {"role": "tool", "tool_call_id": "c1", "content": RESULT}


def im_end(engine: Engine) -> int:
    return engine.tokenizer.convert_tokens_to_ids("<|im_end|>")


def test_a_served_turn_extends_its_own_ids(engine):
    """Turn 1 as served, then turn 2 with turn 1's ids: the prompt is those ids and the hand-written observation."""
    first = engine.complete(request([SYSTEM, USER]))
    ids = first["prompt_token_ids"] + first["choices"][0]["token_ids"]
    assert ids[-1] == im_end(engine)  # a constrained call ends with the end-of-turn token the model was made to write
    reply = {"role": "assistant", **{k: first["choices"][0]["message"][k] for k in ("content", "tool_calls")}}
    second = engine.complete(request([SYSTEM, USER, reply, tool_result()], prefix_token_ids=ids, prefix_message_index=2))
    assert second["prompt_token_ids"] == ids + engine.encode(AFTER_REPLY)
    assert second["usage"]["prompt_tokens"] == len(second["prompt_token_ids"])


def test_the_models_spacing_survives_where_a_re_rendering_breaks_the_chain(engine):
    """The model wrote its arguments without spaces; the template writes them back with json.dumps' spacing."""
    prompt = engine.render(request([SYSTEM, USER]))
    args = '{"path":"calc.py"}'
    completion = engine.encode(f'<tool_call>\n{{"name": "read_file", "arguments": {args}}}\n</tool_call>') + [im_end(engine)]
    ids = prompt + completion
    conversation = [SYSTEM, USER, call_message(args), tool_result()]
    re_rendered = engine.render(request(conversation))
    assert re_rendered[: len(ids)] != ids  # the break this extension exists for
    spliced = engine.render(request(conversation, prefix_token_ids=ids, prefix_message_index=2))
    assert spliced == ids + engine.encode(AFTER_REPLY)


@pytest.mark.parametrize("stopped", [True, False], ids=["reply-ended", "reply-cut-by-max-tokens"])
def test_ids_that_were_never_re_rendered_give_the_full_rendering(engine, stopped):
    """When the prefix is exactly how the template writes the covered messages, splicing changes nothing: the prompt
    equals the whole conversation rendered. A reply that ended holds its end-of-turn token (not added twice); a reply
    cut by max_tokens does not, and the server closes its turn."""
    said = "Let me look at calc.py first."
    ids = engine.render(request([SYSTEM, USER])) + engine.encode(said) + ([im_end(engine)] if stopped else [])
    conversation = [SYSTEM, USER, {"role": "assistant", "content": said}, tool_result()]
    spliced = engine.render(request(conversation, prefix_token_ids=ids, prefix_message_index=2))
    assert spliced == engine.render(request(conversation))
    assert spliced[: len(ids)] == ids
    closing = [] if stopped else [im_end(engine)]
    assert spliced[len(ids):] == closing + engine.encode(AFTER_REPLY)


def test_a_later_turn_splices_after_the_newest_covered_reply(engine):
    """Three turns in: the prefix covers both earlier replies and ends with the second."""
    ids = engine.render(request([SYSTEM, USER])) + engine.encode("first") + [im_end(engine)]
    ids += engine.encode(AFTER_REPLY) + engine.encode("second") + [im_end(engine)]
    conversation = [SYSTEM, USER, {"role": "assistant", "content": "first"}, tool_result(),
                    {"role": "assistant", "content": "second"}, tool_result()]
    spliced = engine.render(request(conversation, prefix_token_ids=ids, prefix_message_index=4))
    assert spliced == ids + engine.encode(AFTER_REPLY)


# A template that marks the last message: the covered messages rendered alone end "assistant (last)", which the full
# conversation does not hold, so the covered rendering is not a prefix of the full one.
MARKS_LAST = ("{% for m in messages %}<|im_start|>{{ m.role }}{{ ' (last)' if loop.last else '' }}\n{{ m.content }}"
              "<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")


def test_a_template_that_re_renders_earlier_turns_still_splices_at_the_message_boundary():
    engine = Engine(build_tiny_random())
    engine.tokenizer.chat_template = MARKS_LAST
    covered = engine.tokenizer.apply_chat_template(
        [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}], tokenize=False)
    full = engine.tokenizer.apply_chat_template(
        [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}, {"role": "user", "content": "x"}],
        tokenize=False, add_generation_prompt=True)
    assert not full.startswith(covered)  # the case under test
    ids = engine.encode("<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\nhello") + [im_end(engine)]
    conversation = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}, tool_result()]
    spliced = engine.render(ChatRequest.model_validate(
        {"messages": conversation, "prefix_token_ids": ids, "prefix_message_index": 1}))
    assert spliced == ids + engine.encode(
        f"\n<|im_start|>user (last)\n<tool_response>\n{RESULT}\n</tool_response><|im_end|>\n<|im_start|>assistant\n")


def test_a_template_that_hides_the_reply_is_refused():
    engine = Engine(build_tiny_random())
    engine.tokenizer.chat_template = ("{% for m in messages %}<|im_start|>{{ m.role }}\n{% if m.role != 'assistant' %}"
                                      "{{ m.content }}{% endif %}<|im_end|>\n{% endfor %}<|im_start|>assistant\n")
    with pytest.raises(RequestError) as e:
        engine.render(ChatRequest.model_validate({"messages": [USER, {"role": "assistant", "content": "a"}, USER],
                                                  "prefix_token_ids": [1, 2], "prefix_message_index": 1}))
    assert e.value.status == 400 and "does not show an assistant message's content" in e.value.message


def test_a_prefix_longer_than_the_context_is_the_usual_overflow(engine):
    ids = engine.encode("word " * engine.loaded.context_length)
    assert len(ids) >= engine.loaded.context_length
    conversation = [SYSTEM, USER, call_message('{"path": "calc.py"}'), tool_result()]
    with pytest.raises(RequestError) as e:
        engine.complete(request(conversation, prefix_token_ids=ids, prefix_message_index=2))
    assert e.value.status == 400 and e.value.param == "messages"
    assert f"maximum context length is {engine.loaded.context_length} tokens" in e.value.message


def test_ids_outside_the_vocabulary_are_a_clear_400(engine):
    size = len(engine.tokenizer)
    conversation = [SYSTEM, USER, call_message('{"path": "calc.py"}'), tool_result()]
    with pytest.raises(RequestError) as e:
        engine.complete(request(conversation, prefix_token_ids=[1, 2, size], prefix_message_index=2))
    assert e.value.status == 400 and e.value.param == "prefix_token_ids"
    assert e.value.message.startswith(f"prefix_token_ids.2: {size} is not a token id of this model")
    with pytest.raises(ValidationError, match="prefix_token_ids.1"):
        request(conversation, prefix_token_ids=[1, -1], prefix_message_index=2)


@pytest.mark.parametrize(("extra", "why"), [
    ({"prefix_token_ids": [1]}, "comes with prefix_message_index"),
    ({"prefix_message_index": 2}, "comes with prefix_message_index"),
    ({"prefix_token_ids": [1], "prefix_message_index": 1}, "message 1 is a user message"),
    ({"prefix_token_ids": [1], "prefix_message_index": 4}, r"4 is past the last message \(3\)"),
    ({"prefix_token_ids": [], "prefix_message_index": 2}, "prefix_token_ids"),
])
def test_a_prefix_must_name_the_reply_it_ends_with(extra, why):
    with pytest.raises(ValidationError, match=why):
        request([SYSTEM, USER, call_message("{}"), tool_result()], **extra)
