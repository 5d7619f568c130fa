"""Flags handed to the browser: only the ones marked public, as a JSON snippet and as build-time env vars."""
import json
import re

PUBLIC_FLAGS = ("new_checkout", "dark_mode")
_ENV_NAME = re.compile(r"[^A-Z0-9]+")


def public_flags(resolved):
    return {name: resolved[name] for name in PUBLIC_FLAGS if name in resolved}


def as_script(tenant, resolved):
    payload = json.dumps({"tenant": tenant, "flags": public_flags(resolved)}, sort_keys=True)
    return f"window.__FLAGS__ = {payload};"


def as_env(resolved, prefix="APP_FLAG_"):
    """{'APP_FLAG_NEW_CHECKOUT': '1', ...} for the static build."""
    return {prefix + _ENV_NAME.sub("_", name.upper()): "1" if value else "0" for name, value in sorted(public_flags(resolved).items())}
