"""Writing calibrated spectra for the analysis notebooks."""
from defaults import EXPORT_DEFAULTS
from vendor.layerconf import deep_merge


def export_settings(fmt, options=None):
    """The format's defaults with the caller's options on top."""
    if fmt not in EXPORT_DEFAULTS:
        raise ValueError(f"unknown export format {fmt!r}")
    return deep_merge(EXPORT_DEFAULTS[fmt], options or {})


def to_csv(rows, options=None):
    """rows: (wavelength_nm, counts) pairs."""
    settings = export_settings("csv", options)
    sep, places = settings["delimiter"], settings["decimals"]
    lines = [sep.join(settings["columns"])]
    lines += [sep.join((f"{nm:.{places}f}", str(counts))) for nm, counts in rows]
    return "\n".join(lines) + "\n"


def calibrated_rows(coefficients, counts):
    """(wavelength_nm, counts) pairs for a binned readout, through the fitted dispersion."""
    a, b = coefficients
    return [(a + b * pixel, value) for pixel, value in enumerate(counts)]
