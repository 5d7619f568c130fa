"""How tools, tool calls and tool results are written as text for a chat template that knows nothing of tools.

SmolLM2's template renders `<|im_start|>{role}\\n{content}<|im_end|>` and nothing else, so tool use is plain text:

- The tool schemas go at the end of the system message, one JSON object per line between `<tools>` and `</tools>`,
  with a short instruction on how to call them.
- A tool call, as the model writes it and as earlier calls are rendered back into the conversation, is exactly

      <tool_call>
      {"name": "<tool name>", "arguments": {<JSON object>}}
      </tool_call>

  (constrained decoding forces this layout byte for byte, see constrained.py).
- A tool result becomes a user turn holding `<tool_response>\\n{content}\\n</tool_response>`; consecutive results share
  one user turn. The model has seen user turns; it has never seen a `tool` role.

Parsing accepts a little more than it forces (a list of calls in one block, `arguments` given as a JSON string, a
missing closing tag at the end of the reply) because unconstrained replies are messy.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

CALL_OPEN = "<tool_call>"
CALL_CLOSE = "</tool_call>"
CALL_PREFIX = CALL_OPEN + '\n{"name": "'  # what a constrained reply is forced to start with
ARGUMENTS_KEY = '", "arguments":'  # follows the tool name
CALL_SUFFIX = "\n" + CALL_CLOSE  # follows the closing brace of the call object
RESULT_OPEN, RESULT_CLOSE = "<tool_response>", "</tool_response>"

TOOLS_INSTRUCTION = (
    "You can call tools. Their signatures, one JSON object per line, are between <tools> and </tools>:\n"
    "<tools>\n{tools}\n</tools>\n"
    "To call a tool, reply with exactly one block of this form, nothing else:\n"
    + CALL_OPEN
    + '\n{{"name": "<tool name>", "arguments": {{<arguments as a JSON object>}}}}\n'
    + CALL_CLOSE
)


@dataclass(frozen=True)
class ParsedCall:
    name: str
    arguments: str  # a JSON string, as the OpenAI API carries it


def tools_block(tools: list[dict]) -> str:
    lines = "\n".join(json.dumps(t, ensure_ascii=False) for t in tools)
    return TOOLS_INSTRUCTION.format(tools=lines)


def call_text(name: str, arguments: str | dict) -> str:
    """The text of one call. Arguments that are valid JSON are re-serialised (so history looks like what the model
    is constrained to write); anything else is embedded as a JSON string rather than dropped."""
    if isinstance(arguments, str):
        try:
            args = json.loads(arguments) if arguments.strip() else {}
        except json.JSONDecodeError:
            args = arguments
    else:
        args = arguments
    body = json.dumps({"name": name, "arguments": args}, ensure_ascii=False)
    return f"{CALL_OPEN}\n{body}\n{CALL_CLOSE}"


def template_messages(messages: list[dict], tools: list[dict] | None) -> list[dict]:
    """OpenAI-shaped messages (already validated, content flattened to text) -> role/content pairs for the template."""
    out: list[dict] = []
    system_extra = tools_block(tools) if tools else None
    if system_extra and (not messages or messages[0]["role"] != "system"):
        out.append({"role": "system", "content": system_extra})
        system_extra = None
    for m in messages:
        role, content = m["role"], m.get("content") or ""
        if role == "system" and system_extra:
            content = f"{content}\n\n{system_extra}" if content else system_extra
            system_extra = None
        if role == "assistant" and m.get("tool_calls"):
            calls = "\n".join(call_text(c["function"]["name"], c["function"]["arguments"]) for c in m["tool_calls"])
            content = f"{content}\n{calls}" if content else calls
        if role == "tool":
            block = f"{RESULT_OPEN}\n{content}\n{RESULT_CLOSE}"
            if out and out[-1].get("_tool_results"):
                out[-1]["content"] += "\n" + block
                continue
            out.append({"role": "user", "content": block, "_tool_results": True})
            continue
        out.append({"role": role, "content": content})
    return [{"role": m["role"], "content": m["content"]} for m in out]


def parse_reply(text: str) -> tuple[str | None, list[ParsedCall]]:
    """Split a reply into its free text and its tool calls. A block that does not parse is left in the text, so the
    caller (and the model, next turn) can see what went wrong."""
    calls: list[ParsedCall] = []
    kept: list[str] = []
    pos = 0
    while (start := text.find(CALL_OPEN, pos)) >= 0:
        found, end = _block(text, start + len(CALL_OPEN))
        kept.append(text[pos:start] if found else text[pos:end])
        calls.extend(found)
        pos = end
    kept.append(text[pos:])
    content = "".join(kept).strip()
    return (content or None), calls


def _block(text: str, body: int) -> tuple[list[ParsedCall], int]:
    """The calls of the block whose body starts at index `body`, and the index where the block ends. A JSON string in
    the arguments may itself hold `</tool_call>` (a model writing about its own format does), so the body runs to
    the first closing tag after which it parses, or to the end of the text (a missing closing tag); if it never
    parses, the block ends at the first closing tag."""
    closes = [m.start() for m in re.finditer(re.escape(CALL_CLOSE), text[body:])]
    for stop in [body + c for c in closes] + [len(text)]:
        found = _calls_in(text[body:stop])
        if found:
            return found, stop + len(CALL_CLOSE) if stop < len(text) else stop
    return [], body + closes[0] + len(CALL_CLOSE) if closes else len(text)


def _calls_in(body: str) -> list[ParsedCall]:
    try:
        obj = json.loads(body)
    except json.JSONDecodeError:
        return []
    items = obj if isinstance(obj, list) else [obj]
    calls = []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            return []
        args = item.get("arguments", {})
        if isinstance(args, str):
            calls.append(ParsedCall(item["name"], args))
        else:
            calls.append(ParsedCall(item["name"], json.dumps(args, ensure_ascii=False)))
    return calls
