"""What every command line of the package and its examples shares: a parser whose description is the module's first
paragraph, whole, and whose --help shows each option's default."""

from __future__ import annotations

import argparse
import sys

from .errors import ConnectionLost, ServerUnreachable, SplendorError

# What a tool reports in one line rather than a traceback: a dead URL, an env or bot setting the server refuses, a
# dropped connection.
EXPECTED = (SplendorError, ServerUnreachable, ConnectionLost)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose options say their defaults in --help (argparse's ArgumentDefaultsHelpFormatter
    skips options without a help text, and prints "default: None")."""

    def add_argument(self, *args, **kwargs) -> argparse.Action:
        action = super().add_argument(*args, **kwargs)
        said = action.help is not None and "default" in action.help
        if action.option_strings and action.default not in (None, False, argparse.SUPPRESS) and not said:
            action.help = f"{action.help} (default: %(default)s)" if action.help else "default: %(default)s"
        return action


def parser(doc: str | None, prog: str | None = None) -> Parser:
    """The parser of a module of docstring `doc`: its first paragraph, as one line, describes it."""
    return Parser(prog=prog, description=" ".join((doc or "").split("\n\n")[0].split()))


def failed(prog: str, exc: BaseException) -> int:
    """An expected failure (EXPECTED) as one line on stderr, `prog: Kind: message`; returns the exit status, 1."""
    print(f"{prog}: {type(exc).__name__}: {exc}", file=sys.stderr)
    return 1
