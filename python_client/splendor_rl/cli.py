"""What every command line of the package and its examples shares: a parser whose description is the module's first
paragraph, whole, and whose --help shows each option's default; and the results file of the tools whose runs of
seeded games go on after an interruption (`--results PATH --resume`)."""

from __future__ import annotations

import argparse
import json
import os
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


class ResultsFile:
    """JSON Lines: {"run": {...the arguments that decide the games...}}, then one row per finished game, flushed as
    each ends so that a killed run keeps every game it finished. With `resume`, an existing file of the same run is
    read into `rows` (a last line cut short by the kill is dropped) and appended to. Without a path, it keeps
    nothing."""

    def __init__(self, path: str | None, run: dict, resume: bool = False):
        self.rows: list[dict] = []
        self.file = None
        if path is None:
            return
        if resume and os.path.exists(path):
            self.rows = self._load(path, run)
            self.file = open(path, "a")
        else:
            self.file = open(path, "w")
            self.add({"run": run})

    @staticmethod
    def _load(path: str, run: dict) -> list[dict]:
        with open(path, "r+b") as f:
            data = f.read()
            data = data[:data.rfind(b"\n") + 1]  # drop an unfinished last line
            f.truncate(len(data))
        lines = data.decode().splitlines()
        if not lines or json.loads(lines[0]).get("run") != run:
            raise ValueError(f"{path} holds the results of another run (its first line is not {{'run': {run}}})")
        return [json.loads(line) for line in lines[1:]]

    def add(self, row: dict) -> None:
        if self.file is not None:
            self.file.write(json.dumps(row) + "\n")
            self.file.flush()

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


def add_results(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--results", default=None, metavar="PATH", help="write each finished game here (JSON "
                        "Lines) as it ends")
    parser.add_argument("--resume", action="store_true", help="do not replay the games already in --results")


def check_results(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if args.resume and not args.results:
        parser.error("--resume needs --results")


def open_results(parser: argparse.ArgumentParser, args: argparse.Namespace, run: dict) -> ResultsFile:
    """The args' results file for the games that `run` decides; one of another run is refused (exit 2)."""
    try:
        return ResultsFile(args.results, run, resume=args.resume)
    except ValueError as exc:
        parser.error(str(exc))


def with_resume_hint(exc: BaseException, results: str | None) -> BaseException:
    """A lost connection says how to go on: what to do is the tool's, not the library's hint."""
    if not isinstance(exc, ConnectionLost):
        return exc
    if results:
        hint = f"the games finished are in {results}: run the same command with --resume to play only the others"
    else:
        hint = "with --results PATH each game is kept as it ends, and a run cut short goes on with --resume"
    return ConnectionLost(exc.url, exc.code, exc.reason, hint)
