import pytest

from checks import InvalidValues
from environments import Chart, ValuesResolver
from manifests import capacity, deployment, render_all
from vendor.overlaykit import DELETE, flatten, merged


def make_chart():
    return Chart(
        name="checkout-api",
        defaults={
            "image": {"repository": "registry.local/checkout-api", "tag": "1.14.0"},
            "replicas": 2,
            "ports": [8080],
            "env": {"LOG_LEVEL": "info"},
            "resources": {"requests": {"cpu": "250m", "memory": "256Mi"}, "limits": {"memory": "512Mi"}},
        },
        overlays={
            "staging": {"image": {"tag": "1.15.0-rc1"}, "env": {"LOG_LEVEL": "debug", "FEATURE_X": "on"},
                        "resources": {"requests": {"cpu": "100m"}}},
            "production": {"replicas": 6},
        },
        regions={"eu": {"env": {"DATA_RESIDENCY": "eu"}, "resources": {"limits": {"memory": "1Gi"}}}},
    )


def test_library_merged_leaves_layers_alone():
    base = {"a": {"b": 1}, "xs": [1]}
    out = merged(base, {"a": {"c": 2}, "xs": [2]}, {"a": {"b": DELETE}})
    assert out == {"a": {"c": 2}, "xs": [2]}
    assert base == {"a": {"b": 1}, "xs": [1]}
    assert flatten({"a": {"b": 1, "c": {}}}) == {"a.b": 1, "a.c": {}}


def test_staging_values():
    values = ValuesResolver(make_chart()).values_for("staging")
    assert values["image"]["tag"] == "1.15.0-rc1"
    assert values["resources"]["requests"] == {"cpu": "100m", "memory": "256Mi"}
    assert values["labels"] == {"env": "staging"}


def test_production_alone():
    manifest = deployment("checkout-api", ValuesResolver(make_chart()).values_for("production"))
    assert manifest["spec"]["replicas"] == 6
    assert manifest["spec"]["template"]["spec"]["containers"][0]["image"] == "registry.local/checkout-api:1.14.0"


def test_production_after_staging_uses_release_image_and_env():
    resolver = ValuesResolver(make_chart())
    out = render_all(resolver, [("staging", None), ("production", None)])
    prod = out["production"]["spec"]["template"]["spec"]["containers"][0]
    assert prod["image"] == "registry.local/checkout-api:1.14.0"
    assert prod["env"] == [{"name": "LOG_LEVEL", "value": "info"}]
    assert prod["resources"]["requests"]["cpu"] == "250m"


def test_capacity_of_a_rollout():
    resolver = ValuesResolver(make_chart())
    out = render_all(resolver, [("staging", None), ("production", "eu"), ("production", None)])
    assert capacity(out) == {"cpu_m": 2 * 100 + 6 * 250 + 6 * 250, "memory_mi": 2 * 256 + 6 * 256 + 6 * 256}
    assert out["production"]["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"] == {"memory": "512Mi"}


def test_region_overlay_adds_residency():
    values = ValuesResolver(make_chart()).values_for("production", "eu")
    assert values["env"]["DATA_RESIDENCY"] == "eu" and values["labels"] == {"env": "production", "region": "eu"}


def test_invalid_values_are_reported():
    chart = make_chart()
    chart.overlays["broken"] = {"replicas": -1, "resources": {"requests": {"cpu": "lots"}}}
    with pytest.raises(InvalidValues) as err:
        ValuesResolver(chart).values_for("broken")
    assert len(err.value.problems) == 2


def test_unknown_environment():
    with pytest.raises(KeyError):
        ValuesResolver(make_chart()).values_for("qa")
