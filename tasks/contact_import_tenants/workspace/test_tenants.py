import pytest

from tenants import import_upload, importer_for

CSV = "name,email,phone\n ada lovelace ,ADA@Example.com,020 7946 0123\n"
JSON = '[{"name": "grace hopper ", "email": "Grace@Navy.mil", "phone": "555 0100", "fax": "555 0199"}]'

ACME = {"tenant": "acme", "extra_transforms": ["mask_phone", "title_case_names"]}
GLOBEX = {"tenant": "globex"}
INITECH = {"tenant": "initech", "extra_transforms": ["drop_fax"]}


def test_csv_import_cleans_fields():
    [c] = import_upload(GLOBEX, "csv", CSV)
    assert c == {"name": "ada lovelace", "email": "ada@example.com", "phone": "020 7946 0123"}


def test_tenant_transforms_apply():
    [c] = import_upload(ACME, "csv", CSV)
    assert c["phone"] == "*********0123"
    assert c["name"] == "Ada Lovelace"


def test_other_tenants_keep_plain_csv_import():
    import_upload(ACME, "csv", CSV)
    [c] = import_upload(GLOBEX, "csv", CSV)
    assert c["phone"] == "020 7946 0123", c
    assert c["name"] == "ada lovelace", c


def test_json_upload_keeps_fax_for_tenants_that_want_it():
    import_upload(INITECH, "json", JSON)
    [c] = import_upload(ACME, "json", JSON)
    assert c.get("fax") == "555 0199", c


def test_unknown_transform_is_reported():
    with pytest.raises(ValueError, match="sparkle"):
        importer_for({"tenant": "x", "extra_transforms": ["sparkle"]}, "csv")


def test_unknown_format():
    with pytest.raises(ValueError):
        import_upload(GLOBEX, "xlsx", "")
