"""Wavelength calibration: fit pixel -> nm from the lamp's reference lines found on the detector."""
from defaults import LAMP_LINES_NM
from profiles import effective_pixels


class CalibrationError(ValueError):
    pass


def fit_dispersion(conf, peak_pixels):
    """Least-squares line nm = a + b * pixel through the detected peaks of the profile's lamp."""
    lines = LAMP_LINES_NM[conf["calibration"]["lamp"]]
    if len(peak_pixels) != len(lines):
        raise CalibrationError(f"found {len(peak_pixels)} peaks, the {conf['calibration']['lamp']} lamp has {len(lines)}")
    limit = effective_pixels(conf)
    if any(not 0 <= p < limit for p in peak_pixels):
        raise CalibrationError(f"peak outside the detector's {limit} pixels")
    n = len(lines)
    mean_x = sum(peak_pixels) / n
    mean_y = sum(lines) / n
    sxx = sum((x - mean_x) ** 2 for x in peak_pixels)
    sxy = sum((x - mean_x) * (y - mean_y) for x, y in zip(peak_pixels, lines))
    slope = sxy / sxx
    return mean_y - slope * mean_x, slope


def wavelength(coefficients, pixel):
    a, b = coefficients
    return a + b * pixel
