"""Record transforms applied to every imported contact, in order.

Each transform takes a contact dict and returns a new dict.
"""


def strip_whitespace(contact: dict) -> dict:
    return {k: v.strip() if isinstance(v, str) else v for k, v in contact.items()}


def normalize_email(contact: dict) -> dict:
    return {**contact, "email": contact.get("email", "").lower()}


def title_case_names(contact: dict) -> dict:
    return {**contact, "name": contact.get("name", "").title()}


def mask_phone(contact: dict) -> dict:
    phone = contact.get("phone", "")
    return {**contact, "phone": "*" * max(len(phone) - 4, 0) + phone[-4:]}


def drop_fax(contact: dict) -> dict:
    return {k: v for k, v in contact.items() if k != "fax"}


BY_NAME = {f.__name__: f for f in (strip_whitespace, normalize_email, title_case_names, mask_phone, drop_fax)}
