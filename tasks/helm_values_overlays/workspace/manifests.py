"""Deployment manifests from resolved values."""
from checks import parse_cpu, parse_memory_mi


def deployment(chart_name, values):
    image = values["image"]
    container = {
        "name": chart_name,
        "image": f"{image['repository']}:{image['tag']}",
        "env": [{"name": k, "value": str(v)} for k, v in sorted(values.get("env", {}).items())],
        "resources": values["resources"],
    }
    if values.get("ports"):
        container["ports"] = [{"containerPort": p} for p in values["ports"]]
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": chart_name, "labels": dict(values.get("labels", {}))},
        "spec": {"replicas": values["replicas"], "template": {"spec": {"containers": [container]}}},
    }


def render_all(resolver, targets):
    """targets: [(env, region or None)] -> {"env/region": manifest}, in order."""
    out = {}
    for env, region in targets:
        key = f"{env}/{region}" if region else env
        out[key] = deployment(resolver.chart.name, resolver.values_for(env, region))
    return out


def capacity(manifests):
    """Total requested CPU (millicores) and memory (Mi) over the replicas of every manifest."""
    cpu = mem = 0
    for m in manifests.values():
        replicas = m["spec"]["replicas"]
        for c in m["spec"]["template"]["spec"]["containers"]:
            cpu += replicas * parse_cpu(c["resources"]["requests"]["cpu"])
            mem += replicas * parse_memory_mi(c["resources"]["requests"]["memory"])
    return {"cpu_m": cpu, "memory_mi": mem}
