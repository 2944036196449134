"""The `ludosim` command line: one library call per command (`app`, which registers the
commands of `commands_rules`, `commands_games`, `commands_sweeps` and `commands_studies`;
their shared options in `params`, what they print in `output`), and its progress
(`progress`: a bar on a terminal, periodic lines without one). The library reports
progress through callbacks and never prints."""

from ludosim.cli.app import app, command_names, main

__all__ = ["app", "command_names", "main"]
