"""Third-party packages vendored into this service (see each package's __init__ for its version)."""
