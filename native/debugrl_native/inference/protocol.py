"""The request bodies the server accepts, validated with pydantic. Unknown top-level fields are refused (a typo such as
`max_token` would otherwise be silently ignored); messages tolerate extra fields (`name`, `refusal`) that OpenAI
clients send. `validation_message` turns pydantic's errors into one line naming the field, for the HTTP 400."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .arg_schema import ArgsSpec, args_spec

# The names OpenAI accepts for functions; also keeps names ASCII, which constrained decoding relies on.
TOOL_NAME = r"^[A-Za-z0-9_-]{1,64}$"
# Adapter names as the episode's policy spec allows them (common/policy-spec.ts: `embedded:<adapter>`).
ADAPTER_NAME = r"^[\w.-]+$"
BASE_MODEL_ALIAS = "default"


class TextPart(BaseModel):
    type: Literal["text"]
    text: str


Content = str | list[TextPart]


def flatten(content: Content | None) -> str | None:
    if content is None or isinstance(content, str):
        return content
    return "".join(p.text for p in content)


class _Message(BaseModel):
    model_config = ConfigDict(extra="ignore")


class SystemMessage(_Message):
    role: Literal["system", "developer"]
    content: Content


class UserMessage(_Message):
    role: Literal["user"]
    content: Content


class FunctionCall(BaseModel):
    name: str = Field(min_length=1)
    arguments: str | dict = "{}"


class ToolCall(BaseModel):
    id: str | None = None
    type: Literal["function"] = "function"
    function: FunctionCall


class AssistantMessage(_Message):
    role: Literal["assistant"]
    content: Content | None = None
    tool_calls: list[ToolCall] | None = None


class ToolMessage(_Message):
    role: Literal["tool"]
    tool_call_id: str
    content: Content


Message = Annotated[SystemMessage | UserMessage | AssistantMessage | ToolMessage, Field(discriminator="role")]


class FunctionDef(BaseModel):
    name: str = Field(pattern=TOOL_NAME)
    description: str = ""
    parameters: dict = Field(default_factory=lambda: {"type": "object", "properties": {}})
    strict: bool | None = None


class ToolDef(BaseModel):
    type: Literal["function"]
    function: FunctionDef


class NamedFunction(BaseModel):
    name: str


class NamedToolChoice(BaseModel):
    type: Literal["function"]
    function: NamedFunction


class ChatRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model: str = BASE_MODEL_ALIAS
    messages: list[Message] = Field(min_length=1)
    tools: list[ToolDef] | None = None
    tool_choice: Literal["auto", "required", "none"] | NamedToolChoice | None = None
    max_tokens: int | None = Field(default=None, ge=1)
    max_completion_tokens: int | None = Field(default=None, ge=1)  # the newer OpenAI name; max_tokens wins
    temperature: float = Field(default=1.0, ge=0.0, le=2.0)
    top_p: float = Field(default=1.0, gt=0.0, le=1.0)
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    logprobs: bool = False
    top_logprobs: int | None = Field(default=None, ge=0, le=20)
    return_token_ids: bool = False
    # Our extension, token in (token_prefix.py): the previous turn's prompt ids followed by its completion ids, and
    # the index in `messages` of the assistant message they end with. The prompt is these ids, then the rendering of
    # what follows that message; without them the whole conversation is rendered.
    prefix_token_ids: list[Annotated[int, Field(ge=0)]] | None = Field(default=None, min_length=1)
    prefix_message_index: int | None = Field(default=None, ge=0)
    n: Literal[1] = 1  # one choice per request: generation is serialised anyway
    stream: Literal[False] = False
    user: str | None = None

    @model_validator(mode="after")
    def _tools_agree(self) -> ChatRequest:
        names = [t.function.name for t in self.tools or []]
        if len(set(names)) != len(names):
            raise ValueError("tools: tool names must be unique")
        choice = self.tool_choice
        if choice == "required" and not names:
            raise ValueError('tool_choice: "required" needs a non-empty tools list')
        if isinstance(choice, NamedToolChoice) and choice.function.name not in names:
            raise ValueError(f"tool_choice: names {choice.function.name!r}, which is not in tools")
        if self.top_logprobs and not self.logprobs:
            raise ValueError("top_logprobs: needs logprobs: true")
        self._prefix_agrees()
        if self.effective_tool_choice == "required":
            self.constrained_tools  # noqa: B018 - refuses an unsatisfiable schema now, as a 400, not mid-decoding
        return self

    def _prefix_agrees(self) -> None:
        """The prefix ids and the message they end with come together, and that message is an assistant reply."""
        ids, index = self.prefix_token_ids, self.prefix_message_index
        if (ids is None) != (index is None):
            raise ValueError("prefix_token_ids: comes with prefix_message_index, and the other way round")
        if index is None:
            return
        if index >= len(self.messages):
            raise ValueError(f"prefix_message_index: {index} is past the last message ({len(self.messages) - 1})")
        if self.messages[index].role != "assistant":
            raise ValueError(f"prefix_message_index: message {index} is a {self.messages[index].role} message; the "
                             "prefix ends with a completion, so it must name an assistant message")

    @property
    def effective_tool_choice(self) -> str:
        if isinstance(self.tool_choice, NamedToolChoice):
            return "required"
        return self.tool_choice or ("auto" if self.tools else "none")

    @property
    def constrained_tools(self) -> dict[str, ArgsSpec]:
        """Tool name -> what constrained decoding lets its arguments hold (see arg_schema.py), for the tools a
        "required" reply may call. Raises ValueError (with the field's path) for a schema no arguments can satisfy."""
        chosen = self.tool_choice.function.name if isinstance(self.tool_choice, NamedToolChoice) else None
        return {t.function.name: args_spec(t.function.parameters, f"tools.{i}.function.parameters")
                for i, t in enumerate(self.tools or []) if chosen is None or t.function.name == chosen}


class LoadAdapterRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    lora_name: str = Field(pattern=ADAPTER_NAME)
    lora_path: str = Field(min_length=1)

    @model_validator(mode="after")
    def _not_base(self) -> LoadAdapterRequest:
        if self.lora_name == BASE_MODEL_ALIAS:
            raise ValueError(f'lora_name: "{BASE_MODEL_ALIAS}" is reserved for the base model')
        return self


class UnloadAdapterRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    lora_name: str = Field(pattern=ADAPTER_NAME)


def validation_message(err: ValidationError) -> str:
    """One line per problem, each starting with the dotted field path (`messages.1.content: Field required`)."""
    parts = []
    for e in err.errors():
        loc = ".".join(str(x) for x in e["loc"])
        msg = e["msg"].removeprefix("Value error, ")
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "; ".join(parts)
