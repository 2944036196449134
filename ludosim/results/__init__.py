"""The results layer: the one owner of what ludosim's results look like and where they lie.

- `schema`: per-game columns and dtypes, summary columns, the Parquet metadata
  key and the bounds of game counts, game numbers and seeds;
- `summary`: `Summary`, `summarize` (from per-game rows) and its round trip
  through a one-row frame (`summary_to_frame`, `summary_from_frame`);
- `parquet`: `write_parquet` (metadata, atomic rename), `check_output_file` and
  `check_output_folder`;
- `paths`: file names and chunk ranges of a sweep folder;
- `chunks`: a chunk's stamp, its checks and the totals a precision plan needs
  (`Moments`, `chunk_moments`), for every reader of chunks;
- `reader`: `load` (`ludosim.load`: a file, a folder or a sweep folder; every
  chunk's stamp checked against its place), `load_cells`, `load_manifest`,
  `summaries`;
- `kind`: `describe(path) -> ResultsKind`, what a path holds (a sweep, part of
  one, a file or files; rows or summaries) and what a sweep recorded of itself
  (its command, its spec as TOML, `precision_status`);
- `folders`: the locked output folder pages and studies write (`output_folder`);
- `stats`: the intervals and tests results are stated with (Wilson, normal,
  order statistics, score and chi-square tests, Holm), plain numpy and math;
- `measures`: what pages compare (length in rounds, the first player's edge, win
  shares, the designer's measures), each with its unit and smallest effect of
  interest; a sweep file's `smallest_effects` are checked against them.

It sits above the rules and below the kernel wrapper (`ludosim.simulate`),
the sweeps (`ludosim.sweep`) and the reports, and imports none of them.
Everything a report needs from a results path comes from here.
"""

from ludosim.results.chunks import Moments, chunk_moments
from ludosim.results.failures import ResultsError
from ludosim.results.folders import FolderNotCreated, output_folder
from ludosim.results.kind import Precision, ResultsKind, describe, precision_status
from ludosim.results.parquet import (
    check_output_file,
    check_output_folder,
    check_output_target,
    write_parquet,
)
from ludosim.results.reader import (
    CELL_INFO,
    IncompleteSweep,
    load,
    load_cells,
    load_manifest,
    summaries,
)
from ludosim.results.schema import META_KEY, columns
from ludosim.results.summary import Summary, summarize, summary_from_frame, summary_to_frame

__all__ = [
    "CELL_INFO",
    "META_KEY",
    "FolderNotCreated",
    "IncompleteSweep",
    "Moments",
    "Precision",
    "ResultsError",
    "ResultsKind",
    "Summary",
    "check_output_file",
    "check_output_folder",
    "check_output_target",
    "chunk_moments",
    "columns",
    "describe",
    "load",
    "load_cells",
    "load_manifest",
    "output_folder",
    "precision_status",
    "summaries",
    "summarize",
    "summary_from_frame",
    "summary_to_frame",
    "write_parquet",
]
