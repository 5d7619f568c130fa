"""Renders transactional emails. A template's first line is `Subject: ...`; the rest is the body."""
from dataclasses import dataclass

from brands import BrandCatalog


@dataclass(frozen=True)
class Message:
    to: str
    subject: str
    body: str


class Mailer:
    def __init__(self, catalog: BrandCatalog):
        self.catalog = catalog

    def render(self, brand: str, template_name: str, to: str, **fields: str) -> Message:
        template = self.catalog.store_for(brand).get(template_name)
        text = template.substitute(brand_name=self.catalog.display_names[brand], **fields)
        first, _, body = text.partition("\n")
        if not first.startswith("Subject: "):
            raise ValueError(f"{brand}/{template_name}: first line must be 'Subject: ...'")
        return Message(to=to, subject=first.removeprefix("Subject: "), body=body.strip())
