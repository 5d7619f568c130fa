def merge(base, *overlays):
    """Merge each overlay into base, recursively for nested dicts, and return base.

    Lists and scalars in an overlay replace the value in base.
    """
    for overlay in overlays:
        if not isinstance(overlay, dict):
            raise TypeError(f"overlay must be a dict, got {type(overlay).__name__}")
        for key, value in overlay.items():
            current = base.get(key)
            if isinstance(current, dict) and isinstance(value, dict):
                merge(current, value)
            else:
                base[key] = value
    return base
