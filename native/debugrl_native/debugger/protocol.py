"""The bridge's wire protocol, typed: one request model, one argument model per command, one reply model.

Requests come from the harness (harness/debugger-client.ts), never from the model: the model's tool arguments were
validated there. So a request that does not fit these models is a harness bug, answered with an ``internal`` reply
(the harness raises an infrastructure error), while a mistake of the model inside well-formed arguments (a blank
line, a name that is not defined) is an ordinary ``ok: false`` reply it reads.

pydantic is imported by the reader thread when the first request arrives (a pre-warmed bridge imports it while
warming), so the bridge's ``ready`` handshake does not wait for it.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class NoArgs(_Strict):
    pass


class StartArgs(_Strict):
    wait: float = Field(default=10, ge=0, le=600)
    test: str | None = Field(default=None, min_length=1)


class WaitArgs(_Strict):
    wait: float = Field(default=5, ge=0, le=600)


class ExpressionArgs(_Strict):
    expression: str


class BreakpointArgs(_Strict):
    file: str = Field(min_length=1)
    line: int
    condition: str | None = None


class LocationArgs(_Strict):
    file: str = Field(min_length=1)
    line: int


class Request(_Strict):
    id: int
    cmd: str
    args: dict = Field(default_factory=dict)


State = Literal["paused", "running", "ended", "stopped", "stale"]


class Reply(_Strict):
    """What every reply carries; commands add their own fields (file, line, reason, outcomes …)."""

    model_config = ConfigDict(extra="allow", strict=True)
    id: int | None
    ok: bool
    state: State | None = None
    text: str | None = None
    error: str | None = None
    internal: bool | None = None
    never_hit: list[str] | None = None
