"""Pre-warming a bridge: import pytest and its plugins before the test is chosen, without touching the workspace.

Why: most of ``start_debugger`` is not the test but pytest's start-up. On the 2-core VM a cold
``pytest.main`` spends ~0.45 s before collection, ~0.3 s of it importing the installed entry-point plugins (anyio's
imports its asyncio backend, and pytest compiles the plugin with assertion rewriting), on top of ~0.15 s for
``import pytest`` itself. A pre-warmed bridge does all of that while the model is still thinking; ``start`` then only
parses the command line, collects and runs (~0.05 s).

What must not change (the semantics of a cold bridge):
- Nothing from the workspace is imported before the test is chosen, so a run after an edit sees the new code. The
  workspace is taken off ``sys.path`` while warming, and every module name looked up is recorded.
- A cold bridge resolves those same imports with the workspace first on ``sys.path`` (``python -m`` puts the cwd
  there). If a workspace file now has the name of a module the warm process already resolved elsewhere (say the model
  created ``pluggy.py``), a cold start would have picked up the workspace file; ``stale_reason`` says so and the
  harness starts a cold bridge instead.
- Entry-point plugins are imported through pytest's own assertion-rewriting import hook, as ``pytest.main`` would
  import them. A plain import would make pytest warn "Module already imported so cannot be rewritten" in the test's
  output, an observation a cold start never shows.
"""
from __future__ import annotations

import importlib
import importlib.abc
import os
import sys
from dataclasses import dataclass, field

# Extension suffixes a module file may have in a sys.path folder (``x.py``, ``x.cpython-311-x86_64-linux-gnu.so``).
_MODULE_SUFFIXES = (".py", ".pyc", ".pyw", ".so")


@dataclass
class Warmed:
    """What a pre-warm did: the top-level module names it looked up, or why it failed (then the process is unusable)."""

    looked_up: set[str] = field(default_factory=set)
    error: str | None = None

    def stale_reason(self, workspace: str) -> str | None:
        """Why this process may not run a test now (a cold bridge would behave differently), or None."""
        if self.error:
            return f"pre-warm failed: {self.error}"
        imported = {name.partition(".")[0] for name in list(sys.modules)}
        clash = sorted((self.looked_up | imported) & workspace_modules(workspace))
        if clash:
            return f"workspace modules shadow modules imported before the test was chosen: {', '.join(clash[:10])}"
        return None


class _Recorder(importlib.abc.MetaPathFinder):
    """First on sys.meta_path while warming: notes each module name the import system looks for, finds nothing."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def find_spec(self, fullname, path=None, target=None):
        self.names.add(fullname.partition(".")[0])
        return None


def workspace_modules(workspace: str) -> set[str]:
    """Top-level module and package names the workspace folder provides when it is on sys.path."""
    names: set[str] = set()
    try:
        entries = list(os.scandir(workspace))
    except OSError:
        return names
    for e in entries:
        try:  # a link loop, a name the file system cannot stat: the entry provides no module
            is_dir = e.is_dir()
        except OSError:
            continue
        if is_dir:
            if os.path.exists(os.path.join(e.path, "__init__.py")):
                names.add(e.name)
        elif e.name.endswith(_MODULE_SUFFIXES):
            names.add(e.name.partition(".")[0])
    return names


def _in_workspace(entry: str, workspace: str) -> bool:
    real = os.path.realpath(entry or os.getcwd())
    return real == workspace or real.startswith(workspace + os.sep)


def prewarm(workspace: str) -> Warmed:
    """Import pytest, its built-in plugins and the installed entry-point plugins with the workspace off sys.path."""
    warmed = Warmed()
    saved_path = list(sys.path)
    recorder = _Recorder(warmed.looked_up)
    sys.path[:] = [p for p in sys.path if not _in_workspace(p, workspace)]
    sys.meta_path.insert(0, recorder)
    try:
        import pytest  # noqa: F401
        from _pytest import config as pytest_config

        for name in (*pytest_config.essential_plugins, *pytest_config.default_plugins):
            importlib.import_module(f"_pytest.{name}")
        _import_entry_point_plugins(pytest_config)
    except BaseException as e:  # any failure only costs the speed-up: the harness falls back to a cold bridge
        warmed.error = f"{type(e).__name__}: {e}"
    finally:
        sys.meta_path.remove(recorder)
        sys.path[:] = saved_path
    return warmed


def _import_entry_point_plugins(pytest_config) -> None:
    """Import every ``pytest11`` entry point the way ``pytest.main`` does: their distributions' top-level modules are
    marked for rewriting and imported through an AssertionRewritingHook. pytest later finds them loaded by a hook of
    its own type and neither warns nor imports them again."""
    import importlib.metadata

    from _pytest.assertion import AssertionState
    from _pytest.assertion.rewrite import AssertionRewritingHook, assertstate_key

    entry_points = []
    names: set[str] = set()
    for dist in importlib.metadata.distributions():
        eps = [ep for ep in dist.entry_points if ep.group == "pytest11"]
        if eps:
            entry_points += eps
            names |= _rewrite_names(pytest_config, dist, eps)
    if not entry_points or os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD"):
        return
    # _RewriteConfig is the part of Config the hook reads, not a Config.
    hook = AssertionRewritingHook(_RewriteConfig(AssertionState, assertstate_key))  # type: ignore[arg-type]
    hook.mark_rewrite(*names)
    sys.meta_path.insert(0, hook)
    try:
        for ep in entry_points:
            ep.load()
    finally:
        sys.meta_path.remove(hook)


def _rewrite_names(pytest_config, dist, eps) -> set[str]:
    """The module names pytest marks for rewriting for one plugin distribution (Config._mark_plugins_for_rewrite)."""
    names = set(pytest_config._iter_rewritable_modules(str(f) for f in dist.files or []))
    if not names and pytest_config._is_editable_install(dist):
        names = {n for ep in eps if (n := pytest_config._plugin_rewrite_name(ep.value.partition(":")[0].strip()))}
    return names


class _RewriteConfig:
    """The part of pytest's Config that AssertionRewritingHook reads, with pytest's defaults (no ini file is read:
    it belongs to the workspace). ``python_files`` raising ValueError makes the hook use its default patterns."""

    class _Trace:
        def __init__(self) -> None:
            self.root = self

        def get(self, name):
            return lambda *args: None

    def __init__(self, state_type, state_key) -> None:
        from _pytest.stash import Stash

        self.trace = self._Trace()
        self.stash = Stash()
        self.stash[state_key] = state_type(self, "rewrite")

    def getini(self, name: str):
        if name == "enable_assertion_pass_hook":
            return False
        raise ValueError(name)

    def issue_config_time_warning(self, warning: Warning, stacklevel: int) -> None:
        raise warning  # nothing is imported yet, so there is nothing to warn about; if there were, fail the pre-warm
