"""formkit: declarative forms with sections, typed fields, validation and plain-text rendering.

    form = Form("SA100", [Section("income", [Field("wages", "money")])])
    errors = form.validate({"income": {"wages": 1200}})
"""
from .fields import Field, FieldError
from .form import Form, Section

__all__ = ["Field", "FieldError", "Form", "Section"]
__version__ = "0.8.2"
