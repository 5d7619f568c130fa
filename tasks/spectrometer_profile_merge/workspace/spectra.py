"""Raw detector readouts: dark-frame subtraction and on-chip style binning done in software."""
from profiles import effective_pixels


def mean_dark(darks):
    """Pixel-wise mean of the dark frames, rounded to whole counts."""
    width = len(darks[0])
    if any(len(frame) != width for frame in darks):
        raise ValueError("dark frames differ in width")
    return [round(sum(frame[i] for frame in darks) / len(darks)) for i in range(width)]


def corrected(conf, raw, darks):
    """The readout less the mean dark, clipped at zero; the profile says how many darks a reading needs."""
    wanted = conf["calibration"]["dark_frames"]
    if len(darks) != wanted:
        raise ValueError(f"{conf.get('name', 'profile')} needs {wanted} dark frames, got {len(darks)}")
    dark = mean_dark(darks)
    if len(dark) != len(raw):
        raise ValueError("dark frames and readout differ in width")
    return [max(0, counts - d) for counts, d in zip(raw, dark)]


def bin_pixels(counts, conf):
    """Sum neighbouring pixels in groups of the profile's binning factor."""
    factor = conf["detector"]["binning"]
    if len(counts) % factor:
        raise ValueError(f"{len(counts)} pixels do not bin by {factor}")
    binned = [sum(counts[i:i + factor]) for i in range(0, len(counts), factor)]
    if len(binned) > effective_pixels(conf):
        raise ValueError("more pixels than the detector has")
    return binned
