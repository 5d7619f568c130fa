"""Attempts saved between sessions, so a student can close the browser and resume."""
import json
import os
import tempfile

from vendor.schemalite import Schema, ValidationError, fields, post_load

from progress import ProgressSchema
from quiz import Attempt


class CorruptAttempt(ValueError):
    pass


class AttemptSchema(Schema):
    attempt_id = fields.Str(required=True, data_key="id")
    quiz_id = fields.Str(required=True, data_key="quiz")
    student = fields.Str(required=True)
    answers = fields.Dict(keys=fields.Int(), values=fields.Int(), default=dict)
    progress = fields.Nested(ProgressSchema(), default=None)
    submitted = fields.Field(default=False)

    @post_load
    def make(self, data):
        if data.get("progress") is None:
            data.pop("progress", None)
        return Attempt(**data)


SCHEMA = AttemptSchema()


class AttemptStore:
    def __init__(self, root):
        self.root = root
        os.makedirs(root, exist_ok=True)

    def _path(self, attempt_id):
        return os.path.join(self.root, f"{attempt_id}.json")

    def save(self, attempt):
        doc = SCHEMA.dump(attempt)
        fd, tmp = tempfile.mkstemp(dir=self.root, suffix=".tmp")
        with os.fdopen(fd, "w") as fh:
            json.dump(doc, fh, sort_keys=True)
        os.replace(tmp, self._path(attempt.attempt_id))

    def resume(self, attempt_id):
        with open(self._path(attempt_id)) as fh:
            doc = json.load(fh)
        try:
            return SCHEMA.load(doc)
        except ValidationError as exc:
            raise CorruptAttempt(f"attempt {attempt_id}: {exc}") from None

    def list_ids(self):
        return sorted(name[:-5] for name in os.listdir(self.root) if name.endswith(".json"))
