import pytest

from calibrate import CalibrationError, fit_dispersion, wavelength
from export import calibrated_rows, export_settings, to_csv
from profiles import ProfileError, build_profile, effective_pixels
from spectra import bin_pixels, corrected
from vendor.layerconf import merged, parse_overrides


def test_overrides_parse_to_nested_values():
    assert parse_overrides(["detector.exposure_ms=250", "calibration.lamp=argon", "detector.gain=2.5"]) == {
        "detector": {"exposure_ms": 250, "gain": 2.5},
        "calibration": {"lamp": "argon"},
    }
    assert merged({"a": {"b": 1}}, {"a": {"c": 2}}) == {"a": {"b": 1, "c": 2}}


def test_profile_layers_apply_in_order():
    conf = build_profile("bench-2", ["detector.binning=2"], site={"detector": {"binning": 4, "gain": 2.0}})
    assert conf["detector"] == {"exposure_ms": 100, "gain": 2.0, "binning": 2, "pixels": 2048}
    assert effective_pixels(conf) == 1024


def test_bad_profile_values_are_reported():
    with pytest.raises(ProfileError, match="detector.exposure_ms has type str"):
        build_profile("bench-9", ["detector.exposure_ms=long"])


def test_each_instrument_starts_from_the_lab_defaults():
    build_profile("raman-1", ["detector.exposure_ms=2000", "calibration.lamp=argon"])
    plain = build_profile("bench-1")
    assert plain["detector"]["exposure_ms"] == 100, f"bench-1 exposure {plain['detector']['exposure_ms']} ms"
    assert plain["calibration"]["lamp"] == "neon"


def test_calibration_fit_recovers_dispersion():
    conf = build_profile("bench-3", ["calibration.lamp=neon", "detector.binning=1"])
    # peaks placed on nm = 400 + 0.15 * pixel
    peaks = [(nm - 400) / 0.15 for nm in (585.249, 640.225, 703.241)]
    a, b = fit_dispersion(conf, peaks)
    assert abs(a - 400) < 1e-6 and abs(b - 0.15) < 1e-9
    assert abs(wavelength((a, b), 1000) - 550) < 1e-6
    with pytest.raises(CalibrationError):
        fit_dispersion(conf, peaks[:2])


def test_csv_export_options_stay_with_their_call():
    semicolon = to_csv([(585.2491, 120)], {"delimiter": ";", "decimals": 1})
    assert semicolon == "wavelength_nm;counts\n585.2;120\n"
    default = to_csv([(585.2491, 120)])
    assert default == "wavelength_nm,counts\n585.249,120\n", f"default export gave {default!r}"
    assert export_settings("fits")["decimals"] == 6
    assert calibrated_rows((400.0, 0.5), [7, 9]) == [(400.0, 7), (400.5, 9)]


def test_dark_subtraction_and_binning():
    conf = build_profile("bench-4", ["detector.binning=2", "calibration.dark_frames=2"])
    raw = [110, 130, 150, 90]
    darks = [[10, 10, 12, 8], [12, 10, 10, 10]]
    assert corrected(conf, raw, darks) == [99, 120, 139, 81]
    assert bin_pixels([99, 120, 139, 81], conf) == [219, 220]
    with pytest.raises(ValueError, match="2 dark frames"):
        corrected(conf, raw, darks[:1])
