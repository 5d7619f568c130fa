"""The text layout of tools, calls and results (tool_format.py), and the parser that reads calls back."""

import json

from debugrl_native.inference.tool_format import call_text, parse_reply, template_messages

TOOL = {"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}


def test_tools_go_into_the_system_message_and_results_become_user_turns():
    msgs = [
        {"role": "system", "content": "Fix bugs."},
        {"role": "user", "content": "Go."},
        {"role": "assistant", "content": None,
         "tool_calls": [{"function": {"name": "read_file", "arguments": '{"path":"a.py"}'}}]},
        {"role": "tool", "tool_call_id": "1", "content": "x = 1"},
        {"role": "tool", "tool_call_id": "2", "content": "y = 2"},
    ]
    out = template_messages(msgs, [TOOL])
    assert [m["role"] for m in out] == ["system", "user", "assistant", "user"]
    assert out[0]["content"].startswith("Fix bugs.\n\n") and json.dumps(TOOL) in out[0]["content"]
    assert out[2]["content"] == '<tool_call>\n{"name": "read_file", "arguments": {"path": "a.py"}}\n</tool_call>'
    assert out[3]["content"] == "<tool_response>\nx = 1\n</tool_response>\n<tool_response>\ny = 2\n</tool_response>"


def test_a_system_message_is_added_when_there_is_none_and_tools_exist():
    out = template_messages([{"role": "user", "content": "hi"}], [TOOL])
    assert out[0]["role"] == "system" and "<tools>" in out[0]["content"]
    assert template_messages([{"role": "user", "content": "hi"}], None) == [{"role": "user", "content": "hi"}]


def test_parse_reply_round_trips_call_text_and_keeps_text_around_it():
    text = "Let me look.\n" + call_text("read_file", {"path": "a.py"})
    content, calls = parse_reply(text)
    assert content == "Let me look."
    assert [(c.name, json.loads(c.arguments)) for c in calls] == [("read_file", {"path": "a.py"})]


def test_parse_reply_accepts_lists_string_arguments_and_a_missing_close_tag():
    _, calls = parse_reply('<tool_call>[{"name": "a", "arguments": "{\\"x\\": 1}"}, {"name": "b"}]')
    assert [(c.name, c.arguments) for c in calls] == [("a", '{"x": 1}'), ("b", "{}")]


def test_an_unparsable_block_stays_in_the_content():
    content, calls = parse_reply('<tool_call>{"name": "a", "arguments": {</tool_call>')
    assert calls == [] and content == '<tool_call>{"name": "a", "arguments": {</tool_call>'


def test_a_closing_tag_inside_an_argument_string_does_not_end_the_block():
    # SmolLM2 wrote this (shortened) as a run_tests target under constrained decoding: the first </tool_call> is
    # inside the JSON string, so the block must run to the one after which the body parses.
    args = {"target": "a.py}} # see </tool_call> for more"}
    text = call_text("run_tests", args) + "\nThen " + call_text("done", {})
    content, calls = parse_reply(text)
    assert [(c.name, json.loads(c.arguments)) for c in calls] == [("run_tests", args), ("done", {})]
    assert content == "Then"
    # A block that never parses still ends at its first closing tag, and what follows is read as usual.
    content, calls = parse_reply('<tool_call>{"name": </tool_call> x ' + call_text("done", {}))
    assert content == '<tool_call>{"name": </tool_call> x' and [c.name for c in calls] == ["done"]
