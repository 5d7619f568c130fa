import hashlib
import os


class TooManyUploads(RuntimeError):
    pass


class Upload:
    def __init__(self, store, name, tmp_path):
        self.store = store
        self.name = name
        self.tmp_path = tmp_path
        self._fh = open(tmp_path, "wb")
        self._hash = hashlib.sha256()
        self.size = 0
        self.done = False

    def write(self, data):
        self._fh.write(data)
        self._hash.update(data)
        self.size += len(data)

    @property
    def digest(self):
        return self._hash.hexdigest()

    def commit(self):
        self._fh.close()
        final = self.store.blob_path(self.digest)
        os.makedirs(os.path.dirname(final), exist_ok=True)
        os.replace(self.tmp_path, final)
        self.done = True
        self.store._finish(self)
        return self.digest

    def abort(self):
        if self.done:
            return
        self._fh.close()
        if os.path.exists(self.tmp_path):
            os.remove(self.tmp_path)
        self.done = True
        self.store._finish(self)


class BlobStore:
    def __init__(self, root, max_pending=4):
        self.root = root
        self.max_pending = max_pending
        self._pending = {}
        self._counter = 0
        os.makedirs(os.path.join(root, "tmp"), exist_ok=True)
        os.makedirs(os.path.join(root, "blobs"), exist_ok=True)

    def blob_path(self, digest):
        return os.path.join(self.root, "blobs", digest[:2], digest)

    def open_upload(self, name):
        if len(self._pending) >= self.max_pending:
            raise TooManyUploads(f"{len(self._pending)} uploads already open")
        self._counter += 1
        tmp = os.path.join(self.root, "tmp", f"{self._counter:06d}.part")
        upload = Upload(self, name, tmp)
        self._pending[tmp] = upload
        return upload

    def _finish(self, upload):
        self._pending.pop(upload.tmp_path, None)

    def pending(self):
        return sorted(u.name for u in self._pending.values())

    def has(self, digest):
        return os.path.exists(self.blob_path(digest))

    def read(self, digest):
        with open(self.blob_path(digest), "rb") as fh:
            return fh.read()

    def disk_usage(self):
        total = 0
        for dirpath, _, names in os.walk(self.root):
            total += sum(os.path.getsize(os.path.join(dirpath, n)) for n in names)
        return total
