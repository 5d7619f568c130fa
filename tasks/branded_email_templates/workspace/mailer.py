"""Renders transactional emails. A template's first line is `Subject: ...`; the rest is the body."""
from dataclasses import dataclass

from addresses import Address, parse_address
from brands import BrandCatalog
from outgoing import Outbox, OutgoingEmail, build_email


@dataclass(frozen=True)
class Message:
    to: Address
    subject: str
    body: str


class Mailer:
    def __init__(self, catalog: BrandCatalog, outbox: Outbox | None = None, unsubscribe_base: str = ""):
        self.catalog = catalog
        self.outbox = outbox or Outbox()
        self.unsubscribe_base = unsubscribe_base

    def render(self, brand: str, template_name: str, to: str, **fields: str) -> Message:
        recipient = parse_address(to)
        template = self.catalog.store_for(brand).get(template_name)
        text = template.substitute(brand_name=self.catalog.display_names[brand], **fields)
        first, _, body = text.partition("\n")
        if not first.startswith("Subject: "):
            raise ValueError(f"{brand}/{template_name}: first line must be 'Subject: ...'")
        return Message(to=recipient, subject=first.removeprefix("Subject: "), body=body.strip())

    def send(self, brand: str, template_name: str, to: str, **fields: str) -> OutgoingEmail:
        message = self.render(brand, template_name, to, **fields)
        unsubscribe = f"{self.unsubscribe_base}/{brand}?u={message.to.email}" if self.unsubscribe_base else None
        email = build_email(message, self.catalog.sender_for(brand), unsubscribe=unsubscribe)
        self.outbox.put(email)
        return email
