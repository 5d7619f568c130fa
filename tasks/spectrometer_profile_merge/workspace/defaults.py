"""Lab-wide defaults for the bench spectrometers; each instrument's profile overrides a few of them."""

INSTRUMENT_DEFAULTS = {
    "detector": {"exposure_ms": 100, "gain": 1.0, "binning": 1, "pixels": 2048},
    "grating": {"lines_per_mm": 600, "blaze_nm": 500},
    "calibration": {"lamp": "neon", "dark_frames": 10, "fit_order": 1},
}

EXPORT_DEFAULTS = {
    "csv": {"delimiter": ",", "decimals": 3, "columns": ["wavelength_nm", "counts"]},
    "fits": {"decimals": 6, "columns": ["wavelength_nm", "counts", "variance"]},
}

LAMP_LINES_NM = {
    "neon": [585.249, 640.225, 703.241],
    "argon": [696.543, 763.511, 811.531],
}

SPEC = {
    "detector.exposure_ms": int,
    "detector.gain": (int, float),
    "detector.binning": int,
    "detector.pixels": int,
    "grating.lines_per_mm": int,
    "calibration.lamp": str,
    "calibration.dark_frames": int,
}
