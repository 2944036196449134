"""What checking a sweep folder's chunks costs on resume, and what hashing costs per chunk.

    .venv/bin/python benchmarks/resume_check.py --chunks 1000 --chunk-games 1000 --big 250000

1. Plays a sweep of `--chunks` chunks of `--chunk-games` games (preset italian)
   into a temporary folder, then times a resume that finds every chunk done:
   each chunk's footer and stamp, then the sha256 of its bytes against the
   manifest. For comparison it times the footer check alone and a full decode.
2. Times `ludosim.load` of that folder, which checks every chunk's stamp
   against its place, and the same load with the stamp check switched off
   (best of three each): the check reads the stamp from the footer that comes
   with the rows, so it costs a JSON parse per chunk.
3. Plays one chunk of `--big` games (the default chunk size) and compares the
   sha256 of its file with the kernel's time for it: the hash is the only
   per-chunk cost the integrity check adds to a sweep.

Timings are wall-clock on whatever else the machine is doing; the ratios within
one run are what to read.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import tempfile
import time
from pathlib import Path

from ludosim.results import load, paths, reader
from ludosim.results.chunks import check_chunk, parse_stamp
from ludosim.results.parquet import write_frame_atomic
from ludosim.rules.model import Rules
from ludosim.run.simulate import simulate
from ludosim.sweep import SweepSpec, run_sweep


def _folder_check(root: Path, spec: SweepSpec) -> dict[str, float]:
    manifest = json.loads((root / paths.MANIFEST).read_text())
    chunks = [
        (cell, int(start), state)
        for cell, states in manifest["chunks"].items()
        for start, state in states.items()
    ]
    mb = sum(p.stat().st_size for p in root.rglob("chunk-*.parquet")) / 1e6

    def timed(**options: object) -> float:
        t0 = time.perf_counter()
        for cell, start, state in chunks:
            path = root / paths.ROWS / f"cell={cell}" / paths.chunk_name(start)
            sha = state["sha256"] if options.get("sha") else None
            problem = check_chunk(
                path, manifest["spec_hash"], cell, start, state["stop"], state["rows"],
                sha256=sha, deep=bool(options.get("deep")),
            )  # fmt: skip
            assert problem is None, problem
        return time.perf_counter() - t0

    footer = timed()
    hashed = timed(sha=True)
    decoded = timed(deep=True)
    t0 = time.perf_counter()
    result = run_sweep(spec, root)
    resume = time.perf_counter() - t0
    assert result.chunks_computed == 0 and result.chunks_skipped == len(chunks)
    return {"chunks": len(chunks), "mb": mb, "footer": footer, "sha256": hashed,
            "decode": decoded, "resume": resume}  # fmt: skip


def _load_check(root: Path) -> dict[str, float]:
    """`load(root)` with and without the stamp check of every chunk (interleaved, best of
    five each), and the check alone over tables already read."""
    import pyarrow.parquet as pq

    original = reader.stamp_problem
    times: dict[bool, list[float]] = {True: [], False: []}
    try:
        for _ in range(5):
            for checked in (False, True):
                reader.stamp_problem = original if checked else (lambda *a, **k: None)
                t0 = time.perf_counter()
                load(root)
                times[checked].append(time.perf_counter() - t0)
    finally:
        reader.stamp_problem = original
    tables = [
        (pq.read_table(path, columns=["game"]), {"cell": cell, "start": paths.chunk_start(path)})
        for cell, path in paths.iter_chunk_files(root)
    ]
    t0 = time.perf_counter()
    for table, expected in tables:
        assert original(parse_stamp(table.schema.metadata), expected, table.num_rows, False) is None
    alone = time.perf_counter() - t0
    return {"checked": min(times[True]), "unchecked": min(times[False]), "alone": alone}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=1000)
    parser.add_argument("--chunk-games", type=int, default=1000)
    parser.add_argument("--big", type=int, default=250_000, help="games of the one large chunk")
    args = parser.parse_args()

    rules = Rules.preset("italian")
    simulate(rules, 1000, 99)  # compile (or load the numba cache) outside the timings
    work = Path(tempfile.mkdtemp(prefix="ludosim-resume-check-"))
    try:
        spec = SweepSpec(
            preset="italian", games=args.chunks * args.chunk_games, seed=1,
            chunk_size=args.chunk_games,
        )  # fmt: skip
        t0 = time.perf_counter()
        run_sweep(spec, work / "folder")
        played = time.perf_counter() - t0
        r = _folder_check(work / "folder", spec)
        n = r["chunks"]
        print(f"folder: {n} chunks of {args.chunk_games} games, {r['mb']:.1f} MB, played in "
              f"{played:.1f} s")  # fmt: skip
        print("| check of every chunk | total s | ms per chunk |")
        print("|---|---|---|")
        for key, label in (("footer", "footer and stamp"), ("sha256", "footer, stamp, sha256"),
                           ("decode", "footer, stamp, full decode"),
                           ("resume", "`run_sweep` resume (all done)")):  # fmt: skip
            print(f"| {label} | {r[key]:.2f} | {1000 * r[key] / n:.2f} |")

        loads = _load_check(work / "folder")
        print(
            f"\nload of the folder (best of 5): {loads['checked']:.2f} s with every chunk's "
            f"stamp checked, {loads['unchecked']:.2f} s without; the check alone "
            f"{1000 * loads['alone']:.1f} ms for {n} chunks ({1e6 * loads['alone'] / n:.0f} us a "
            f"chunk, {100 * loads['alone'] / loads['unchecked']:.2f} % of the load)"
        )

        t0 = time.perf_counter()
        df = simulate(rules, args.big, 1)
        kernel = time.perf_counter() - t0
        path = work / "big.parquet"
        t0 = time.perf_counter()
        write_frame_atomic(df, path, {})
        write = time.perf_counter() - t0
        data = path.read_bytes()
        t0 = time.perf_counter()
        hashlib.sha256(data).hexdigest()
        sha = time.perf_counter() - t0
        print(
            f"\none chunk of {args.big:,} games: kernel {kernel:.2f} s, file "
            f"{len(data) / 1e6:.2f} MB, write (zstd, fsync) {1000 * write:.0f} ms, "
            f"sha256 {1000 * sha:.1f} ms = {100 * sha / kernel:.2f} % of the kernel's time"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
