"""The results layer: the one owner of what ludosim's results look like and where they lie.

- `schema`: per-game columns and dtypes, summary columns, the Parquet metadata
  key and the bounds of game counts, game numbers and seeds;
- `summary`: `Summary`, `summarize` (from per-game rows) and its round trip
  through a one-row frame (`summary_to_frame`, `summary_from_frame`);
- `parquet`: `write_parquet` (metadata, atomic rename) and `check_output_file`;
- `layout`: file names and chunk ranges of a sweep folder;
- `reader`: `load` (`ludosim.load`: a file, a folder or a sweep folder),
  `load_cells`, `load_manifest`, `summaries`.

It sits above the rules and below the kernel wrapper (`ludosim.simulate`),
the sweeps (`ludosim.sweep`) and the reports, and imports none of them.
"""

from ludosim.results.errors import ResultsError
from ludosim.results.parquet import check_output_file, write_parquet
from ludosim.results.reader import CELL_INFO, load, load_cells, load_manifest, summaries
from ludosim.results.schema import META_KEY, columns
from ludosim.results.summary import Summary, summarize, summary_from_frame, summary_to_frame

__all__ = [
    "CELL_INFO",
    "META_KEY",
    "ResultsError",
    "Summary",
    "check_output_file",
    "columns",
    "load",
    "load_cells",
    "load_manifest",
    "summaries",
    "summarize",
    "summary_from_frame",
    "summary_to_frame",
    "write_parquet",
]
