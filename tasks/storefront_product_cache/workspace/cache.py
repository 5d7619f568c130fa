"""A read-through cache in front of the product repository."""


def product_key(product_id):
    return f"product:{product_id}"


def slug_key(slug):
    return f"slug:{slug}"


def category_key(category):
    return f"category:{category}"


class Cache:
    def __init__(self):
        self._entries = {}
        self.hits = 0
        self.misses = 0

    def get_or_load(self, key, load):
        if key in self._entries:
            self.hits += 1
            return self._entries[key]
        self.misses += 1
        value = load()
        self._entries[key] = value
        return value

    def delete(self, *keys):
        for key in keys:
            self._entries.pop(key, None)

    def __len__(self):
        return len(self._entries)
