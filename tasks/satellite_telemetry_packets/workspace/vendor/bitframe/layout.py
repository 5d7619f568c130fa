"""A Layout is an ordered list of named fields packed back to back."""
import struct
from dataclasses import dataclass

from .fields import FieldType

_ORDER = {"big": ">", "little": "<"}


class LayoutError(ValueError):
    pass


@dataclass(frozen=True)
class Field:
    name: str
    type: FieldType
    default: object = None


class Layout:
    def __init__(self, name, fields, byteorder="big"):
        if byteorder not in _ORDER:
            raise LayoutError(f"byteorder must be 'big' or 'little', not {byteorder!r}")
        names = [f.name for f in fields]
        if len(set(names)) != len(names):
            raise LayoutError(f"layout {name}: duplicate field names")
        self.name = name
        self.fields = list(fields)
        self.byteorder = byteorder
        self._struct = struct.Struct(_ORDER[byteorder] + "".join(f.type.code for f in fields))

    @property
    def size(self):
        return self._struct.size

    def field(self, name):
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"layout {self.name} has no field {name!r}")

    def pack(self, values):
        row = []
        for f in self.fields:
            value = values.get(f.name, f.default)
            if value is None:
                raise LayoutError(f"layout {self.name}: missing value for {f.name}")
            row.append(f.type.check(value))
        try:
            return self._struct.pack(*row)
        except struct.error as exc:
            raise LayoutError(f"layout {self.name}: {exc}") from None

    def unpack(self, data, offset=0):
        if len(data) - offset < self.size:
            raise LayoutError(f"layout {self.name}: need {self.size} bytes, have {len(data) - offset}")
        values = self._struct.unpack_from(data, offset)
        return {f.name: v for f, v in zip(self.fields, values)}
