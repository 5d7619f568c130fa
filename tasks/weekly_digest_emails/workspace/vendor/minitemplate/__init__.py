"""minitemplate 1.1.0: a small text template language: {{ var|filter }}, {% if %}, {% for %}."""
from .template import Template, TemplateError

__all__ = ["Template", "TemplateError"]
__version__ = "1.1.0"
