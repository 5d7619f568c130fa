import pytest

from editor import Editor
from hooks import HookError, HookRegistry
from manager import PluginManager, PluginNotFound


def editor_with(*names):
    manager = PluginManager()
    for name in names:
        manager.load(name)
    return Editor(manager), manager


def test_loaded_plugins_see_events():
    editor, manager = editor_with("audit", "wordcount")
    editor.open("notes.txt")
    editor.type("notes.txt", "hello brave new world")
    editor.save("notes.txt")
    editor.close("notes.txt")
    assert manager.loaded["audit"].entries == [("save", "notes.txt", 1), ("close", "notes.txt", 1)]
    assert manager.loaded["wordcount"].counts == {"notes.txt": 4}


def test_registry_checks_events_and_keeps_going_after_a_failing_hook():
    registry = HookRegistry()
    with pytest.raises(HookError):
        registry.register("print", print)
    calls = []
    registry.register("save", lambda doc: 1 / 0)
    registry.register("save", lambda doc: calls.append(doc))
    registry.emit("save", "d")
    assert calls == ["d"] and registry.errors[0][0] == "save"


def test_unknown_plugin():
    with pytest.raises(PluginNotFound):
        PluginManager().load("vim-mode")


def test_function_hooks_can_be_removed():
    registry = HookRegistry()
    seen = []

    def hook(doc):
        seen.append(doc)

    registry.register("open", hook)
    registry.unregister("open", hook)
    registry.emit("open", "x")
    assert seen == [] and registry.count() == 0


def test_unloaded_plugin_gets_no_events():
    editor, manager = editor_with("audit")
    audit = manager.unload("audit")
    editor.open("a.txt")
    editor.save("a.txt")
    assert audit.entries == []
    assert manager.registry.count() == 0


def test_reload_fires_each_hook_once():
    editor, manager = editor_with("audit")
    manager.reload("audit")
    editor.open("b.txt")
    editor.type("b.txt", "x")
    editor.save("b.txt")
    assert manager.loaded["audit"].entries == [("save", "b.txt", 1)]
    assert manager.registry.count("save") == 1


def test_reload_with_new_settings_replaces_the_old_behaviour():
    editor, manager = editor_with()
    manager.load("autosave", {"every": 1})
    editor.open("c.txt")
    first = manager.loaded["autosave"]
    manager.reload("autosave", {"every": 5})
    for _ in range(5):
        editor.type("c.txt", "y")
    assert first.saved == []
    assert manager.loaded["autosave"].saved == [("c.txt", 5)]


def test_status_lists_hooks():
    _, manager = editor_with("wordcount", "audit")
    assert manager.status() == {"audit": "audit 1.2 (save, close)", "wordcount": "wordcount 0.9 (edit)"}


def test_load_all_from_config():
    manager = PluginManager()
    assert manager.load_all({"plugins": {"spellcheck": {"words": ["hello", "world"]}, "audit": None}}) == ["audit", "spellcheck"]
    editor = Editor(manager)
    editor.open("d.txt")
    editor.type("d.txt", "Hello wrld.")
    assert manager.loaded["spellcheck"].flagged == {"d.txt": ["wrld"]}
