"""Each brand has its own template folder; anything a brand does not override comes from `default/`."""
from pathlib import Path

from addresses import Address, parse_address
from template_loader import TemplateStore


class UnknownBrand(LookupError):
    pass


class BrandCatalog:
    def __init__(self, templates_root: Path, display_names: dict[str, str], senders: dict[str, str] | None = None):
        self.root = Path(templates_root)
        self.display_names = dict(display_names)
        self.senders = {brand: parse_address(a) for brand, a in (senders or {}).items()}
        self.default = TemplateStore(self.root / "default")
        self._stores: dict[str, TemplateStore] = {}

    def sender_for(self, brand: str) -> Address:
        if brand not in self.display_names:
            raise UnknownBrand(brand)
        return self.senders.get(brand) or Address(f"no-reply@{brand}.example", self.display_names[brand])

    def store_for(self, brand: str) -> TemplateStore:
        if brand not in self.display_names:
            raise UnknownBrand(brand)
        if brand not in self._stores:
            self._stores[brand] = TemplateStore(self.root / brand, fallback=self.default)
        return self._stores[brand]
