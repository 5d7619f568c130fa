"""The committed JSON Schema of the learner's contract (what TypeScript checks itself against) is current."""

import json

from debugrl_native.learner.schema import FIXTURE, learner_schema, render


def test_the_schema_fixture_is_current():
    assert FIXTURE.is_file(), f"{FIXTURE} is missing"
    assert FIXTURE.read_text() == render(), (
        "the learner's config.py or protocol.py changed: regenerate the fixture with "
        "`.venv/bin/python -m debugrl_native.learner.schema` and let tests/learner-schema.test.ts check TypeScript")


def test_the_schema_carries_the_defaults_typescript_must_share():
    cfg = learner_schema()["config"]["$defs"]
    assert cfg["LoraConfig"]["properties"]["rank"]["default"] == 16
    assert json.loads(render())["request"]["discriminator"]["propertyName"] == "type"
