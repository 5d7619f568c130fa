"""Primitive field types, each a struct format code with its value range."""


class FieldType:
    def __init__(self, name, code, size, low=None, high=None):
        self.name = name
        self.code = code
        self.size = size
        self.low = low
        self.high = high

    @property
    def bits(self):
        return self.size * 8

    @property
    def signed(self):
        return self.low is not None and self.low < 0

    def check(self, value):
        if self.low is not None and not (self.low <= value <= self.high):
            raise OverflowError(f"{value} does not fit {self.name} [{self.low}, {self.high}]")
        return value

    def __repr__(self):
        return self.name


U8 = FieldType("U8", "B", 1, 0, 0xFF)
U16 = FieldType("U16", "H", 2, 0, 0xFFFF)
U32 = FieldType("U32", "I", 4, 0, 0xFFFFFFFF)
I8 = FieldType("I8", "b", 1, -0x80, 0x7F)
I16 = FieldType("I16", "h", 2, -0x8000, 0x7FFF)
I32 = FieldType("I32", "i", 4, -0x80000000, 0x7FFFFFFF)
F32 = FieldType("F32", "f", 4)


def Bytes(n):
    return FieldType(f"Bytes({n})", f"{n}s", n)
