import hashlib
from dataclasses import dataclass

from vendor.blobshelf import BlobStore


class ArtifactCorrupt(Exception):
    pass


class ArtifactTooLarge(Exception):
    pass


@dataclass(frozen=True)
class Artifact:
    key: str
    digest: str
    size: int


CHUNK = 4096


def chunks(data, size=CHUNK):
    for i in range(0, len(data), size):
        yield data[i:i + size]


class ArtifactCache:
    def __init__(self, store: BlobStore, max_bytes=1 << 20):
        self.store = store
        self.max_bytes = max_bytes
        self.index = {}

    def publish(self, key, data, expected_sha256=None):
        upload = self.store.open_upload(key)
        try:
            for piece in chunks(data):
                upload.write(piece)
                if upload.size > self.max_bytes:
                    raise ArtifactTooLarge(f"{key}: more than {self.max_bytes} bytes")
            if expected_sha256 is not None and upload.digest != expected_sha256:
                raise ArtifactCorrupt(f"{key}: checksum mismatch")
        except Exception:
            upload.abort()
            raise
        digest = upload.commit()
        self.index[key] = Artifact(key, digest, len(data))
        return self.index[key]

    def publish_log(self, key, lines):
        upload = self.store.open_upload(key + ".log")
        for line in lines:
            if "\x00" in line:
                upload.abort()
                raise ArtifactCorrupt(f"{key}: binary data in log")
            upload.write((line.rstrip("\n") + "\n").encode())
        digest = upload.commit()
        self.index[key + ".log"] = Artifact(key + ".log", digest, upload.size)
        return self.index[key + ".log"]

    def fetch(self, key):
        artifact = self.index.get(key)
        if artifact is None or not self.store.has(artifact.digest):
            return None
        data = self.store.read(artifact.digest)
        if hashlib.sha256(data).hexdigest() != artifact.digest:
            raise ArtifactCorrupt(f"{key}: stored blob is damaged")
        return data

    def restore(self, prefixes):
        for prefix in prefixes:
            hits = sorted(k for k in self.index if k.startswith(prefix))
            if hits:
                return hits[-1], self.fetch(hits[-1])
        return None, None

    def prune(self, prefix, keep=2):
        keys = sorted(k for k in self.index if k.startswith(prefix))
        dropped = keys[:-keep] if keep else keys
        for k in dropped:
            del self.index[k]
        return dropped

    def total_size(self):
        return sum(a.size for a in self.index.values())
