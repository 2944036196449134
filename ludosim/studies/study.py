"""What the studies with a page share: reading and checking a study file
(`ludosim skill FILE`, `ludosim unfold FILE`, `ludosim design FILE`), with one wording for
its faults, and writing a study into a locked output folder (`run_into_folder`).

A study file is TOML: sizes, a seed and a line-up on top, one `[[rule_set]]` table
(or rule-set text) per rule set. Every fault is one line that names the file and
the key, raised as the study's own `LudosimError` subclass: a value of the wrong
type is refused, never converted (`int("x")`) or read character by character (a
text where a list belongs).
"""

from __future__ import annotations

import contextlib
import tomllib
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any, TypeVar

from ludosim.results.schema import SEED_MAX
from ludosim.rules import checks
from ludosim.rules.errors import LudosimError
from ludosim.rules.options import RuleSet
from ludosim.rules.policies import split_policy_list

T = TypeVar("T")
ErrorType = type[LudosimError]
_EXAMPLES = {"seed": "seed = 1, a whole number, 0 or more", "preset": 'preset = "app"'}


def read_study_file(
    path: Any, keys: Collection[str], error: ErrorType, *, required: Collection[str] = ("seed",)
) -> dict[str, Any]:
    """The study file's table, with only `keys` on top and every `required` key among them."""
    if not isinstance(path, (str, Path)) or not str(path).strip():
        raise error(f"the study file's path must be a str or pathlib.Path, got {path!r}")
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise error(f"study file {str(path)!r} cannot be read: {exc}") from None
    unknown = set(data) - set(keys)
    if unknown:
        raise error(
            f"study file {path}: unknown keys {', '.join(sorted(unknown))}; "
            f"allowed: {', '.join(sorted(keys))}"
        )
    missing = [key for key in required if key not in data]
    if missing:
        raise error(
            f"study file {path}: needs {' and '.join(missing)} (e.g. "
            + ", ".join(_EXAMPLES.get(key, f"{key} = ...") for key in missing)
            + ")"
        )
    return data


def study_seed(path: Any, data: dict[str, Any], error: ErrorType) -> int:
    """The file's `seed`, an integer in 0..2**64-1."""
    return checks.integer(
        f"study file {path}: seed", data["seed"], 0, SEED_MAX, error=error, high_text="2**64-1"
    )


def study_rule_sets(path: Any, data: dict[str, Any], key: str, error: ErrorType) -> list[RuleSet]:
    """The rule sets under `key`: `[[key]]` tables with a preset, or a list of rule-set texts."""
    items = data.get(key, [])
    if not isinstance(items, list):
        raise error(
            f"study file {path}: {key} must be a list: [[{key}]] tables with a preset, or "
            f'texts such as {key} = ["app", "app+finish=bounce"]; got {items!r}'
        )
    out = []
    for item in items:
        if isinstance(item, dict) and "preset" not in item:
            raise error(f"study file {path}: every [[{key}]] needs a preset")
        out.append(RuleSet.from_item(item, f"study file {path}: {key}"))
    return out


def study_policies(path: Any, data: dict[str, Any], key: str, error: ErrorType) -> list[str]:
    """A line-up under `key`: a list of policy names, or one comma-separated text of them."""
    value = data[key]
    if isinstance(value, str):
        return split_policy_list(value)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise error(
            f"study file {path}: {key} must be a list of policy names (or one text of them, "
            f"comma-separated), got {value!r}"
        )
    return list(value)


def built_from_file(path: Any, error: ErrorType, make: Callable[[], T]) -> T:
    """`make()`, with any fault it finds in the file's values said as the file's (`error`)."""
    try:
        return make()
    except LudosimError as exc:
        if str(exc).startswith("study file "):
            raise
        raise error(f"study file {path}: {exc}") from None


# The page every study writes beside its tables.
PAGE_FILE = "index.html"


def write_frames(folder: Any, frames: dict[str, Any]) -> Path:
    """Each of `frames` (file name -> DataFrame) as CSV into `folder`, made if missing."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for name, frame in frames.items():
        frame.to_csv(out / name, index=False)
    return out


def read_frames(folder: Any, names: Sequence[str], error: ErrorType) -> list[Any]:
    """The CSV tables `names` of a study's `folder`, in order; one `error` line naming the
    folder when one cannot be read."""
    import pandas as pd

    try:
        return [pd.read_csv(Path(folder) / name) for name in names]
    except OSError as exc:
        raise error(f"{folder}: the study's tables cannot be read: {exc}") from None


def earlier_output(*names: str) -> Callable[[Path], bool]:
    """The test `run_into_folder` asks of a folder that holds files: whether it is an
    earlier output of a study that writes the files `names` (its tables and its page),
    which a rerun writes over."""
    return lambda folder: all((folder / name).is_file() for name in names)


def run_into_folder(
    out: Any,
    play: Callable[..., T],
    write: Callable[[T, Path], Any],
    page: Callable[[T, Path], Path],
    check: Callable[[T], None] | None = None,
    *,
    what: str = "study",
    own: Callable[[Path], bool] | None = None,
    key: str | None = None,
) -> Path:
    """`play()` the study, then write its tables and its page into the folder `out`; the page.

    `out` is checked before any game is played: a folder that holds other files is
    refused unless `own(folder)` finds an earlier output of the same study there (`what`
    names it in the refusal), which is written over; hidden entries do not count, so a
    folder holding only a stopped study's parts (`.parts/`) is taken. `check(tables)`
    runs before anything is written; the folder is locked while written, and a study
    that fails on the way leaves no files behind; a write that fails (a full disk) is
    one `ResultsError` naming the file and the cause.

    With `key` (`ludosim.studies.parts.study_key`) the study keeps its finished parts:
    `play(parts)` is handed the `Parts` of `out`, which saves each part as it finishes
    and finds those that an earlier, stopped run of the same study saved. Ctrl-C, or
    SIGTERM, then raises `StudyStopped` (a KeyboardInterrupt) saying how many parts are
    kept; the parts are removed once the page is written."""
    from ludosim.results import check_output_folder
    from ludosim.studies.parts import Parts, StudyStopped, Terminated, stop_on_sigterm

    folder = check_output_folder(out, what, own)
    if key is None:
        return _write_study(folder, play(), write, page, check, what)
    existed = folder.exists()
    parts = Parts(folder, key)
    try:
        with stop_on_sigterm():
            tables = play(parts)
            if check is not None:
                try:
                    check(tables)
                except Exception:
                    # Tables no page can be drawn from: a rerun would find the same, so
                    # the parts go, and the folder too when this run made it.
                    parts.remove()
                    if not existed:
                        with contextlib.suppress(OSError):
                            folder.rmdir()
                    raise
            written = _write_study(folder, tables, write, page, None, what, parts.kept)
    except KeyboardInterrupt as exc:
        stopped = StudyStopped(
            parts.kept, len(parts.names), folder, terminated=isinstance(exc, Terminated)
        )
        raise stopped from None
    parts.remove()
    return written


def _write_study(
    folder: Path,
    tables: T,
    write: Callable[[T, Path], Any],
    page: Callable[[T, Path], Path],
    check: Callable[[T], None] | None,
    what: str,
    kept: int = 0,
) -> Path:
    """Check the study's tables, then write them and its page into `folder`; the page."""
    from ludosim.results import output_folder
    from ludosim.results.failures import ResultsError, write_error

    if check is not None:
        check(tables)
    try:
        with output_folder(folder, what):
            write(tables, folder)
            return page(tables, folder)
    except OSError as exc:
        # One line, as a sweep's or a report's failed write (a full disk).
        also = "; its finished parts are kept, rerun to resume" if kept else ""
        message = f"{write_error(exc, folder)}; the {what} was not written{also}"
        raise ResultsError(message) from None
