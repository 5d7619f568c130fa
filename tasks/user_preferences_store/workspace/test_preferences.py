import json

import pytest

from preferences import PreferenceError, Preferences
from prefs_store import PreferenceStore


@pytest.fixture
def prefs(tmp_path):
    return Preferences(PreferenceStore(tmp_path))


def test_new_user_gets_defaults(prefs):
    assert prefs.get("u1", "playback.volume") == 70
    assert prefs.get("u1", "notifications.email_digest") is True


def test_changed_volume_is_remembered(prefs):
    prefs.set("u1", "playback.volume", 35)
    assert prefs.get("u1", "playback.volume") == 35


def test_only_overrides_are_written(prefs, tmp_path):
    prefs.set("u1", "playback.subtitle_language", "de")
    assert json.loads((tmp_path / "u1.json").read_text()) == {"playback": {"subtitle_language": "de"}}


def test_wrong_type_or_unknown_key_is_refused(prefs):
    with pytest.raises(PreferenceError):
        prefs.set("u1", "playback.volume", "loud")
    with pytest.raises(PreferenceError):
        prefs.set("u1", "playback.bass_boost", True)


def test_switched_off_settings_stay_off(prefs):
    prefs.set("u1", "notifications.email_digest", False)
    prefs.set("u1", "privacy.share_listening", False)
    assert prefs.get("u1", "notifications.email_digest") is False
    assert prefs.get("u1", "privacy.share_listening") is False


def test_muted_user_without_crossfade(prefs):
    prefs.set("u1", "playback.volume", 0)
    prefs.set("u1", "playback.crossfade_seconds", 0)
    assert prefs.get("u1", "playback.volume") == 0
    assert prefs.get("u1", "playback.crossfade_seconds") == 0
