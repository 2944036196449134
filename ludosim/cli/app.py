"""The `ludosim` command line: a thin typer adapter over the library.

Each command parses its options, calls the library and prints the result.
Library errors (`LudosimError`, and the `ValueError` of a bad seed) become one
line on stderr and exit code 2, never a traceback. The same words mean the same
in every command: `--preset NAME` and repeated `--set TOGGLE=VALUE`
(`ludosim.rules.options.rules_from_options`); a whole rule set as one argument in
`[NAME=]PRESET[+TOGGLE=VALUE...]` (`RuleSet.parse`: `compare`, `--rule-set`,
`--variant`); `--vary TOGGLE=V1,V2` a grid axis; `--policy A,B,...` the seats'
line-up (a comma-separated list, or the option repeated; older spellings are
still read, with a note naming this one).

Commands that print results take `--format table|json|csv`: a table for people,
every number rounded to what its interval supports, then the findings; or the
same answer for scripts (`ludosim.report.answers.Answer`). Long commands show
their progress on stderr (`ludosim.cli.progress`): a bar on a terminal, a line
every few seconds otherwise, nothing with `-q`. The simulation and benchmark
modules are imported inside their commands, so the light commands start fast.

This module is the typer `app`, the entry point `main` and the error handling; it
registers the commands, in the order `ludosim --help` lists them, from the modules
that define them: `commands_rules` (presets, policies, rules), `commands_games` (play,
simulate, compare, whatif, exact), `commands_sweeps` (bench, sweep, report) and
`commands_studies` (tournament, ratings, skill, unfold, tune, design). Their shared
options are in `params`, what they print in `output`.
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import typer
from rich.markup import escape
from typer.core import TyperCommand, TyperGroup

from ludosim.cli import commands_games, commands_rules, commands_studies, commands_sweeps
from ludosim.rules.errors import LudosimError

try:  # typer >= 0.20 vendors click; its usage errors derive from TyperException
    from typer import TyperException as _UsageError
except ImportError:  # pragma: no cover - older typer raises click's own exceptions
    from click import ClickException as _UsageError

EXIT_ERROR = 2


def _readable_help(params: list[Any]) -> list[Any]:
    """Show each parameter in --help as a reader types it.

    typer prints a type placeholder such as `<bool>` after every option, which
    makes a flag (`--toml`, `-q`, `--help`) look as if it took a value: an
    empty metavar prints none. An argument's metavar is already its name, so
    its `<str>` type column goes too. Help text is rich markup, in which
    `[[rule_set]]` would vanish as a style tag: it is escaped, once (typer
    asks for the parameters more than once per command line).
    """
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
        if param.param_type_name == "argument" and param.metavar:
            param.display_type_rich = lambda ctx: None
        if param.help and not getattr(param, "_help_escaped", False):
            param.help = escape(param.help)
            param._help_escaped = True
    return params


def reflowed(text: str | None) -> str | None:
    """A command's help with each paragraph on one line, for the terminal to wrap.

    typer keeps the single line breaks of a docstring after its first paragraph, so
    on a terminal narrower or wider than the source a paragraph comes out ragged
    (a short line in the middle of a sentence); paragraphs stay apart."""
    if not text:
        return text
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in p.split("\n")) for p in paragraphs)


class _Command(TyperCommand):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help = reflowed(self.help)

    def get_params(self, ctx: Any) -> list[Any]:
        return _readable_help(super().get_params(ctx))


class _Group(TyperGroup):
    def get_params(self, ctx: Any) -> list[Any]:
        return _readable_help(super().get_params(ctx))


app = typer.Typer(
    name="ludosim",
    cls=_Group,
    help=(
        "Monte Carlo rules analysis for Ludo and its regional variants.\n\n"
        "Example: ludosim play --preset killer --seed 7"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

F = TypeVar("F", bound=Callable[..., Any])


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(EXIT_ERROR)


def _clean_errors(func: F) -> F:
    """Turn library errors, and a module missing from the installation, into one line on
    stderr and exit code 2."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (LudosimError, ValueError) as exc:
            raise _fail(" ".join(str(exc).split()) or type(exc).__name__) from None
        except ImportError as exc:
            # Commands import the library in their bodies: a module missing from a
            # broken installation surfaces here.
            missing = exc.name or "a module"
            raise _fail(f"{missing} is not available in this installation ({exc})") from None

    return wrapper  # type: ignore[return-value]


# The commands, in the order `ludosim --help` lists them.
COMMANDS: tuple[Callable[..., None], ...] = (
    commands_rules.presets,
    commands_rules.policies,
    commands_rules.rules,
    commands_games.play,
    commands_games.simulate,
    commands_games.compare,
    commands_games.whatif,
    commands_sweeps.bench,
    commands_studies.tournament,
    commands_studies.ratings,
    commands_studies.skill,
    commands_studies.unfold,
    commands_studies.duels,
    commands_sweeps.sweep,
    commands_sweeps.report,
    commands_games.exact,
    commands_studies.tune,
    commands_studies.design,
)
for _command in COMMANDS:
    app.command(cls=_Command)(_clean_errors(_command))


def command_names() -> list[str]:
    """Names of every registered command, for docs and tests."""
    return [c.name or c.callback.__name__ for c in app.registered_commands if c.callback]


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point (`ludosim = ludosim.cli.app:main`).

    Usage errors (a missing or malformed option) are printed like library
    errors: one line on stderr, exit code 2.
    """
    args = list(sys.argv[1:] if argv is None else argv) or ["--help"]
    try:
        code = app(args=args, prog_name="ludosim", standalone_mode=False)
    except _UsageError as exc:
        ctx = getattr(exc, "ctx", None)
        hint = f" (see `{ctx.command_path} --help`)" if ctx is not None else ""
        typer.echo(f"error: {exc.format_message()}{hint}", err=True)
        sys.exit(getattr(exc, "exit_code", EXIT_ERROR) or EXIT_ERROR)
    except typer.Abort:
        typer.echo("aborted", err=True)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":  # pragma: no cover
    main()
