"""bitframe: declarative fixed-layout binary records.

    Header = Layout("header", [Field("apid", U16), Field("length", U16)])
    blob = Header.pack({"apid": 7, "length": 12})
    Header.unpack(blob) == {"apid": 7, "length": 12}
"""
from .fields import F32, I8, I16, I32, U8, U16, U32, Bytes, FieldType
from .layout import Field, Layout, LayoutError
from .checksum import crc16_ccitt

__all__ = ["F32", "I8", "I16", "I32", "U8", "U16", "U32", "Bytes", "FieldType", "Field", "Layout", "LayoutError", "crc16_ccitt"]
__version__ = "0.9.1"
