"""Forms made of sections; values are nested dicts {section: {field: value}}."""
from .fields import FieldError


class Section:
    def __init__(self, name, fields, title=None):
        self.name = name
        self.fields = list(fields)
        self.title = title or name.replace("_", " ").title()

    def field(self, name):
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"section {self.name} has no field {name}")


class Form:
    def __init__(self, code, sections):
        self.code = code
        self.sections = list(sections)

    def section(self, name):
        for s in self.sections:
            if s.name == name:
                return s
        raise KeyError(f"form {self.code} has no section {name}")

    def validate(self, values):
        errors = []
        for s in self.sections:
            section_values = values.get(s.name, {})
            for f in s.fields:
                try:
                    f.check(section_values.get(f.name))
                except FieldError as exc:
                    errors.append(f"{s.name}.{exc}")
            unknown = set(section_values) - {f.name for f in s.fields}
            errors.extend(f"{s.name}.{u}: not a field of this form" for u in sorted(unknown))
        return errors

    def render(self, values):
        lines = [self.code]
        for s in self.sections:
            lines.append(f"[{s.title}]")
            for f in s.fields:
                lines.append(f"  {f.label or f.name}: {f.display(values.get(s.name, {}).get(f.name))}")
        return lines
