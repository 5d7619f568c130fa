"""Encoding of report bodies: UTF-8 text, gzip-compressed."""
import gzip


class GzipCodec:
    level = 6

    def encode(self, text):
        if not isinstance(text, str):
            raise TypeError(f"report body must be str, got {type(text).__name__}")
        return gzip.compress(text.encode("utf-8"), compresslevel=self.level)

    def decode(self, blob):
        return gzip.decompress(blob).decode("utf-8")
