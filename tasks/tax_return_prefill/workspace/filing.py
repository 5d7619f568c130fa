"""Filing: a return is frozen when submitted; amendments are new versions listing what changed."""
import copy
from dataclasses import dataclass, field

from calculation import balance
from schema import SA_FORM


@dataclass
class Filing:
    utr: str
    versions: list = field(default_factory=list)

    def submit(self, values):
        errors = SA_FORM.validate(values)
        if errors:
            raise ValueError("; ".join(errors))
        self.versions.append(copy.deepcopy(values))
        return len(self.versions)

    def current(self):
        if not self.versions:
            raise LookupError(f"{self.utr}: nothing filed")
        return self.versions[-1]

    def amend(self, changes):
        """changes: {(section, field): new value}. Returns the fields that changed and the new balance."""
        values = copy.deepcopy(self.current())
        changed = []
        for (section, name), value in sorted(changes.items()):
            if values[section].get(name) != value:
                values[section][name] = value
                changed.append(f"{section}.{name}")
        self.submit(values)
        return changed, balance(values)
