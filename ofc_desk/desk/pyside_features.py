"""PySide6's `__feature__` import hook, taken off before the desk's own modules load (issue 39.3).

PySide6 lets a module say `from __feature__ import snake_case` by replacing `builtins.__import__`
with its `__feature_import__` when it is first imported. From then on every `import` statement
runs two Python functions of PySide's (one before the import, one after), and each module imported
for the first time has its whole source read (`inspect.getsource`) to learn whether it names
PySide6: hundreds of modules on a desk's launch. The desk and the floor use no feature (a test
checks that no module of ofc_desk imports `__feature__`), so the import PySide6 wrapped is put
back: its own lazy loading of Qt classes (`__orig_import__`, beneath the feature hook) stays.

Imported first by the desk's and the floor's entry modules, before the rest of ofc_desk."""

import builtins

import PySide6.QtCore  # noqa: F401  (its first import is what installs the hook)


def feature_import_hook_on() -> bool:
    """Whether `import` statements still go through PySide6's feature hook."""
    hook = getattr(builtins, "__feature_import__", None)
    return hook is not None and builtins.__import__ is hook


def take_off_feature_import_hook() -> None:
    """Put back the import PySide6's feature hook wrapped. Only the hook itself is replaced: an
    import someone installed over it (a debugger's, a test runner's) is left as it is."""
    if feature_import_hook_on():
        builtins.__import__ = vars(builtins)["__orig_import__"]


take_off_feature_import_hook()
