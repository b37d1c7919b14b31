"""One way to say that an optional dependency is missing: a line naming the extra and the pip install that brings
it, from a library call (`MissingExtra`, an ImportError) and from every command line alike."""

from __future__ import annotations

import importlib
from types import ModuleType


class MissingExtra(ImportError):
    """`what` needs `module`, which the `extra` extra installs."""

    def __init__(self, what: str, module: str, extra: str):
        super().__init__(f"{what} needs {module} (the '{extra}' extra): pip install 'splendor_rl[{extra}]'",
                         name=module)
        self.extra = extra


def require(what: str, extra: str, *modules: str) -> list[ModuleType]:
    """Import each module, or raise MissingExtra for the first one missing. A module that is there but fails on an
    import of its own raises as it would."""
    imported = []
    for module in modules:
        try:
            imported.append(importlib.import_module(module))
        except ModuleNotFoundError as exc:
            if exc.name is None or not (module == exc.name or module.startswith(exc.name + ".")):
                raise
            raise MissingExtra(what, exc.name, extra) from None
    return imported


def command(prog: str, extra: str, *modules: str) -> None:
    """For a command line (`python -m …`) whose module imports its extra's modules at the top: call it first, so
    that a missing one ends the command with one line (exit status 1), not an import traceback."""
    try:
        require(prog, extra, *modules)
    except MissingExtra as exc:
        raise SystemExit(str(exc)) from None
