"""The storage backend behind the gateway (an in-memory stand-in with the real one's interface)."""


class NotFound(KeyError):
    pass


class Storage:
    def __init__(self):
        self._objects = {}
        self.calls = []

    def get(self, tenant, key):
        self.calls.append(("get", tenant, key))
        try:
            return self._objects[(tenant, key)]
        except KeyError:
            raise NotFound(key) from None

    def put(self, tenant, key, body):
        self.calls.append(("put", tenant, key))
        self._objects[(tenant, key)] = bytes(body)

    def delete(self, tenant, key):
        self.calls.append(("delete", tenant, key))
        if self._objects.pop((tenant, key), None) is None:
            raise NotFound(key)

    def list_keys(self, tenant, prefix=""):
        self.calls.append(("list", tenant, prefix))
        return sorted(key for (owner, key) in self._objects if owner == tenant and key.startswith(prefix))

    def usage(self, tenant):
        """Objects and bytes stored for `tenant`."""
        sizes = [len(body) for (owner, _), body in self._objects.items() if owner == tenant]
        return {"objects": len(sizes), "bytes": sum(sizes)}

    def tenants(self):
        return sorted({owner for owner, _ in self._objects})
