"""Uploaded files: bytes from the browser, decoded to text, fingerprinted so a re-upload is recognised."""
import hashlib

MAX_BYTES = 2 * 1024 * 1024


class UploadError(ValueError):
    pass


def decode_upload(data):
    """Text of an uploaded CSV. Spreadsheet exports are UTF-8, or Windows-1252 from older Excel."""
    if len(data) > MAX_BYTES:
        raise UploadError(f"file is {len(data)} bytes; the limit is {MAX_BYTES}")
    if not data.strip():
        raise UploadError("file is empty")
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise UploadError("file is neither UTF-8 nor Windows-1252 text")


def normalise_newlines(text):
    return text.replace("\r\n", "\n").replace("\r", "\n")


def fingerprint(text):
    """Identifies an upload's content regardless of line endings and trailing blank lines."""
    canonical = normalise_newlines(text).rstrip("\n") + "\n"
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]
