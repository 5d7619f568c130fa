"""The learner's contract as JSON Schema: what its config file (config.py) and its requests (protocol.py) accept.

Python owns the contract; TypeScript checks itself against this export (tests/learner-schema.test.ts), and a pytest
fails when the committed fixture is stale. Regenerate after changing config.py or protocol.py:

    .venv/bin/python -m debugrl_native.learner.schema native/tests/fixtures/learner_schema.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pydantic import TypeAdapter

from .config import LearnerConfig
from .protocol import Request

FIXTURE = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "learner_schema.json"


def learner_schema() -> dict:
    """{"config": LearnerConfig's schema, "request": the request union's schema}, as pydantic validates input."""
    return {
        "config": LearnerConfig.model_json_schema(mode="validation"),
        "request": TypeAdapter(Request).json_schema(mode="validation"),
    }


def render() -> str:
    return json.dumps(learner_schema(), indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    target = Path(args[0]) if args else FIXTURE
    target.write_text(render())
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
