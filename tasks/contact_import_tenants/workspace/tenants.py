"""Per-tenant import settings.

Tenants may switch on extra transforms (privacy masking, name cleanup) in
their admin settings; those apply only to that tenant's uploads.
"""
from importers import CsvImporter, Importer, JsonImporter
from transforms import BY_NAME

IMPORTERS = {"csv": CsvImporter, "json": JsonImporter}


def importer_for(settings: dict, fmt: str) -> Importer:
    try:
        importer = IMPORTERS[fmt]()
    except KeyError:
        raise ValueError(f"unsupported upload format {fmt!r}") from None
    for name in settings.get("extra_transforms", []):
        if name not in BY_NAME:
            raise ValueError(f"tenant {settings.get('tenant')!r} asks for unknown transform {name!r}")
        importer.add_transform(BY_NAME[name])
    return importer


def import_upload(settings: dict, fmt: str, payload: str) -> list[dict]:
    return importer_for(settings, fmt).run(payload)
