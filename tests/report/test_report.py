"""`make_report` on the small checked-in sweeps: files, captions, commands, images,
and which figures a report chooses for one cell, a few, a 36-cell grid and a tournament.

Figures are drawn with the Agg canvas. The browser check runs when a headless
Chromium is installed (CI installs one) and is skipped otherwise.
"""

from __future__ import annotations

import base64
import html
import json
import re
import shlex
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

from ludosim import results
from ludosim.report.findings import TITLES, findings
from ludosim.report.page import (
    ANSWERS,
    OPEN_DETAILS,
    SPEC_FILE,
    cell_labels,
    html_table,
    make_report,
)
from ludosim.sweep import SweepSpec, spec_hash
from ludosim.sweep.spec import spec_command

FIXTURE = Path(__file__).parents[1] / "fixtures" / "results_small"
SWEEPS = ("toggles", "skip")


class _Page(HTMLParser):
    """Images (file name and source), links, figure captions and findings of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.images: list[str] = []  # the PNG file each image shows
        self.sources: list[str] = []
        self.links: list[str] = []
        self.captions: list[str] = []
        self.sections: list[str] = []
        self.findings: list[str] = []  # resolved or unresolved, per finding in page order
        self.headline: list[bool] = []  # whether each finding is shown as a headline
        self.topics: list[str] = []  # the findings' headings
        self.folded = 0  # <details> inside the findings
        self._caption: list[str] | None = None
        self._heading: list[str] | None = None
        self._in_findings = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "section":
            self.sections.append(values.get("id") or "")
            self._in_findings = values.get("id") == "findings"
        elif self._in_findings and "finding" in (values.get("class") or "").split():
            classes = (values.get("class") or "").split()
            self.findings.append("resolved" if "resolved" in classes else "unresolved")
            self.headline.append("headline" in classes)
        elif self._in_findings and tag == "h3":
            self._heading = []
        elif self._in_findings and tag == "details":
            self.folded += 1
        elif tag == "img":
            self.images.append(values["data-file"] or "")
            self.sources.append(values["src"] or "")
        elif tag == "a":
            self.links.append(values["href"] or "")
        elif tag == "figcaption":
            self._caption = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "section":
            self._in_findings = False
        if tag == "h3" and self._heading is not None:
            self.topics.append("".join(self._heading).strip())
            self._heading = None
        if tag == "figcaption" and self._caption is not None:
            self.captions.append(" ".join("".join(self._caption).split()))
            self._caption = None

    def handle_data(self, data: str) -> None:
        if self._heading is not None:
            self._heading.append(data)
        if self._caption is not None:
            self._caption.append(data)


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("reports")
    return {name: make_report(FIXTURE / name, out / name) for name in SWEEPS}


def parse(page: Path) -> _Page:
    parser = _Page()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


@pytest.mark.parametrize("name", SWEEPS)
def test_every_png_is_on_the_page_and_every_image_exists(
    reports: dict[str, Path], name: str
) -> None:
    page = reports[name]
    assert page.name == "index.html"
    parsed = parse(page)
    pngs = sorted(p.name for p in page.parent.glob("*.png"))
    assert pngs, "no figures written"
    assert sorted(parsed.images) == pngs
    for link in parsed.links:
        if link.startswith("#"):  # a link within the page: its target is on it
            assert f'id="{link[1:]}"' in page.read_text(encoding="utf-8"), link
            continue
        assert (page.parent / link).is_file(), link
    for png in pngs:
        assert (page.parent / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the page carries each figure itself: the same PNG bytes as a data URI
    prefix = "data:image/png;base64,"
    for file, src in zip(parsed.images, parsed.sources, strict=True):
        assert src.startswith(prefix)
        assert base64.b64decode(src[len(prefix) :]) == (page.parent / file).read_bytes()


@pytest.mark.parametrize("name", SWEEPS)
def test_page_opens_on_findings_and_ends_on_the_cells_table(
    reports: dict[str, Path], name: str
) -> None:
    page = reports[name]
    parsed = parse(page)
    # the answer box first, then the findings with their method notes and precision
    assert parsed.sections[:2] == ["answer", "findings"]
    expected = findings(
        results.load(FIXTURE / name, cells=True), results.load_cells(FIXTURE / name)
    )
    text = page.read_text(encoding="utf-8")
    assert parsed.findings == ["resolved" if f.resolved else "unresolved" for f in expected]
    assert parsed.headline == [f.headline for f in expected]
    # one human heading per topic, in the findings' order; no raw topic keys
    assert parsed.topics == [TITLES[t] for t in dict.fromkeys(f.topic for f in expected)]
    # how to read the page, then the study's own question, then length and the first player
    assert parsed.topics[0] == "How to read these findings"
    assert parsed.topics[1] == {"toggles": "Toggle effects", "skip": "Skip cost"}[name]
    assert parsed.topics[-2:] == ["Game length", "First-player advantage"]
    # a topic's statements stay open up to OPEN_DETAILS; beyond, they fold under the headline
    details = [sum(1 for f in expected if f.topic == t and not f.headline)
               for t in dict.fromkeys(f.topic for f in expected)]  # fmt: skip
    assert parsed.folded == sum(1 for d in details if d > OPEN_DETAILS)
    # every table scrolls sideways inside its own box instead of widening the page
    assert text.count("<table") == text.count('<div class="scroll"><table') > 0
    assert ".scroll { overflow-x: auto;" in text
    # the cells table closes the results; the glossary of the findings' words ends the page
    assert text.rindex("<h2>") == text.index("<h2>Glossary</h2>")
    assert text.rindex("<h2>", 0, text.index("<h2>Glossary</h2>")) == text.index("<h2>Cells</h2>")
    assert text.index("<h2>Findings</h2>") < text.index("<h2>Game length</h2>")
    assert page.stat().st_size < 5_000_000


@pytest.mark.parametrize("name", SWEEPS)
def test_the_first_screen_answers_the_page_question(reports: dict[str, Path], name: str) -> None:
    """The box above the method holds each topic's first headline, none of the method
    notes, the exploratory warning first; its badges agree with what each one says."""
    page = reports[name]
    text = page.read_text(encoding="utf-8")
    box = text[text.index('<section id="answer">') : text.index("</section>")]
    stated = [html.unescape(t) for t in re.findall(r'<li class="answer[^>]*>(.*?)(?: <span|</li>)',
                                                   box, re.S)]  # fmt: skip
    expected = findings(
        results.load(FIXTURE / name, cells=True), results.load_cells(FIXTURE / name)
    )
    heads = [f for f in expected if f.headline]
    firsts = list({f.topic: f for f in reversed(heads) if f.topic != "about"}.values())[::-1]
    warning = [f.text for f in heads if f.text.startswith("Exploratory:")]
    assert stated == [*warning, *(f.text for f in firsts)][: len(stated)]
    assert len(stated) == min(ANSWERS, len(warning) + len(firsts)) > 0
    assert text.index('<section id="answer">') < text.index("Generated by")
    items = re.findall(r'<li class="answer ([a-z]+) ([a-z]+)[^>]*>(.*?)</li>', box, re.S)
    assert len(items) == len(stated)
    shown = [*(f for f in heads if f.text.startswith("Exploratory:")), *firsts]
    for (resolved, kind, body), f in zip(items, shown, strict=False):
        badge = re.findall(r'<span class="badge[^"]*">(.*?)</span>', body)
        if resolved == "resolved":
            # A resolved claim of an exploratory run is badged as the lead it is.
            assert badge == (["a lead to confirm"] if f.exploratory and kind != "note" else [])
        elif f.equivalent:
            assert badge == [
                "each resolved or no change that matters" if kind == "note"
                else "no change that matters"
            ]  # fmt: skip
        else:
            assert badge == ["not all resolved" if kind == "note" else "not resolved"]


@pytest.mark.parametrize("name", SWEEPS)
def test_every_figure_says_what_was_simulated_and_how_to_reproduce_it(
    reports: dict[str, Path], name: str
) -> None:
    parsed = parse(reports[name])
    manifest = results.load_manifest(FIXTURE / name)
    spec = manifest["spec"]
    assert len(parsed.captions) == len(parsed.images)
    for caption in parsed.captions:
        assert "Simulated:" in caption
        assert f"seed {spec['seed']}" in caption
        assert f"{spec['games']} games per cell" in caption
        assert "policies" in caption
        assert "Reproduce: ludosim sweep" in caption


def test_expected_sections_and_tables(reports: dict[str, Path]) -> None:
    toggles = reports["toggles"].parent
    assert {p.name for p in toggles.glob("*.png")} == {
        "length.png", "length_distribution.png", "first_player_advantage.png",
        "win_rates.png", "toggle_effects.png",
    }  # fmt: skip
    effects = pd.read_csv(toggles / "toggle_effects.csv")
    assert len(effects) == 4
    skip = reports["skip"].parent
    assert "skip_cost.png" in {p.name for p in skip.glob("*.png")}
    assert not (skip / "toggle_effects.png").exists()
    # A policy's win rate pooled over cells that ask different questions (each detection
    # probability) answers none of them: no pooled ranking on a skip page.
    assert not (skip / "policy_ranking.png").exists() and not (skip / "win_table.csv").exists()
    for folder in (toggles, skip):
        for csv in ("cells.csv", "game_length.csv", "first_player_advantage.csv"):
            assert (folder / csv).is_file()
    # the preset's own toggles are not repeated as changes; the varied ones are
    text = reports["toggles"].read_text(encoding="utf-8")
    assert "preset danish, six_limit=3;" in text
    assert "preset danish, finish=bounce" not in text


@pytest.mark.parametrize("name", SWEEPS)
def test_the_caption_command_and_sweep_toml_rebuild_the_same_sweep(
    reports: dict[str, Path], name: str
) -> None:
    manifest = results.load_manifest(FIXTURE / name)
    command = spec_command(manifest["spec"], FIXTURE / name)
    assert command is not None and command in parse(reports[name]).captions[0]
    words = shlex.split(command)[2:]
    options: dict[str, object] = {"sets": [], "vary": [], "variants": []}
    lists = {"--set": "sets", "--vary": "vary", "--variant": "variants"}
    scalars = {"--preset": "preset", "--mode": "mode", "--policy": "policies"}
    numbers = {"--games": "games", "--seed": "seed", "--chunk-size": "chunk_size"}
    for flag, value in zip(words[::2], words[1::2], strict=True):
        if flag in lists:
            options[lists[flag]].append(value)  # type: ignore[union-attr]
        elif flag in scalars:
            options[scalars[flag]] = value
        elif flag in numbers:
            options[numbers[flag]] = int(value)
        else:
            assert flag == "--out" and value == str(FIXTURE / name)
    assert spec_hash(SweepSpec.from_options(**options)) == manifest["spec_hash"]
    from_file = SweepSpec.from_toml(reports[name].parent / SPEC_FILE)
    assert spec_hash(from_file) == manifest["spec_hash"]


def test_spec_command_writes_variants_as_rule_sets_and_gives_way_for_their_policies() -> None:
    spec = {
        "preset": None,
        "variants": [{"name": "fast", "preset": "app", "set": {"six_limit": 0}}],
        "games": 10,
        "seed": 1,
    }
    command = spec_command(spec, "runs/x")
    assert command is not None and "--variant fast=app+six_limit=0" in command
    spec["variants"][0]["policies"] = "runner"  # a variant's own policies: sweep files only
    assert spec_command(spec, "runs/x") is None


def test_report_of_a_single_results_file(tmp_path: Path) -> None:
    df = results.load(FIXTURE / "toggles" / "rows" / "cell=c000")
    file = tmp_path / "app.parquet"
    df.drop(columns="cell").to_parquet(file)
    page = make_report(file, tmp_path / "report", title="One run")
    parsed = parse(page)
    assert "<title>One run</title>" in page.read_text(encoding="utf-8")
    # one cell: its forests, its distribution and its win rates; no grid, no effects
    assert sorted(parsed.images) == [
        "first_player_advantage.png", "length.png", "length_distribution.png", "win_rates.png"
    ]  # fmt: skip
    assert all("300 games per cell" in c for c in parsed.captions)


def test_report_of_a_single_run_says_its_rules_policies_seed_and_command(
    tmp_path: Path,
) -> None:
    from ludosim.cli.app import app
    from ludosim.rules.model import Rules
    from ludosim.run.simulate import simulate

    rules = Rules.preset("app").replace(pass_opponents="all", first_player="seat0")
    file = results.write_parquet(simulate(rules, 2_000, 1), tmp_path / "runs" / "app.parquet")
    page = make_report(file, tmp_path / "report")
    parsed = parse(page)
    command = (
        f"ludosim simulate --preset app --set first_player=seat0 --set pass_opponents=all "
        f"--games 2000 --seed 1 --out {file}"
    )
    described = (
        "Simulated: app “app first_player=seat0 pass_opponents=all”: preset app, "
        "first_player=seat0, pass_opponents=all; policies random. 2,000 games per cell, seed 1."
    )
    assert parsed.captions and all(described in c for c in parsed.captions)
    assert all(f"Reproduce: {command}" in c for c in parsed.captions)
    text = html.unescape(page.read_text(encoding="utf-8"))
    assert "not recorded" not in text
    assert f"Reproduce the results with: {command} (ludosim " in text
    cells = pd.read_csv(page.parent / "cells.csv")
    assert cells.loc[0, "rules_hash"] == rules.hash() and cells.loc[0, "seed"] == 1
    # The command plays the same games again.
    again = tmp_path / "again.parquet"
    words = [*shlex.split(command)[1:-1], str(again)]
    from typer.testing import CliRunner

    assert CliRunner().invoke(app, [*words, "-q"]).exit_code == 0
    pd.testing.assert_frame_equal(results.load(again), results.load(file))


def test_report_of_a_summary_only_sweep_counts_games_and_gives_each_cells_totals(
    tmp_path: Path,
) -> None:
    from ludosim.sweep import run_sweep

    spec = SweepSpec.from_options(preset="app", vary=["six_limit=0,3"], games=400, seed=3,
                                  summary_only=True)  # fmt: skip
    run_sweep(spec, tmp_path / "run")
    page = make_report(tmp_path / "run", tmp_path / "report")
    text = html.unescape(page.read_text(encoding="utf-8"))
    assert "800 games in 2 cells" in text and "per-chunk totals only (summary_only)" in text
    table = pd.read_csv(page.parent / "summaries.csv").set_index("cell")
    for cell, summary in results.summaries(tmp_path / "run").items():
        assert table.loc[cell, "games"] == summary.games == 400
        assert table.loc[cell, "mean_turns"] == pytest.approx(summary.mean("turns"))
        assert table.loc[cell, "first_wins"] == summary.wins_by_position[0]
    command = results.describe(tmp_path / "run").command
    assert command is not None and command.endswith(f"--summary-only --out {tmp_path / 'run'}")
    assert f"Reproduce: <code>{command}</code>" in text  # under the table of totals
    assert spec_hash(SweepSpec.from_toml(page.parent / SPEC_FILE)) == spec_hash(spec)


def test_report_of_a_part_of_a_sweep_reproduces_the_whole_folder(tmp_path: Path) -> None:
    page = make_report(FIXTURE / "toggles" / "rows" / "cell=c000", tmp_path / "part")
    caption = parse(page).captions[0]
    assert caption.endswith(f"--out {FIXTURE / 'toggles'} PNG: length.png")
    assert "300 games per cell" in caption


def test_a_sweep_folder_that_recorded_no_command_says_so(tmp_path: Path) -> None:
    old = tmp_path / "old"
    shutil.copytree(FIXTURE / "skip", old)
    manifest = json.loads((old / "manifest.json").read_text())
    del manifest["command"], manifest["spec_toml"]
    (old / "manifest.json").write_text(json.dumps(manifest))
    page = make_report(old, tmp_path / "report")
    assert not (page.parent / SPEC_FILE).exists()
    for caption in parse(page).captions:
        assert "Reproduce: (not recorded: this sweep folder was written before sweeps " in caption
    assert "the sweep as a file" not in page.read_text(encoding="utf-8")


def test_importing_the_report_loads_no_matplotlib_and_drawing_uses_no_pyplot(
    tmp_path: Path,
) -> None:
    code = (
        "import sys; import ludosim.report.page as r\n"
        "assert 'matplotlib' not in sys.modules\n"
        f"r.make_report({str(FIXTURE / 'skip')!r}, {str(tmp_path)!r})\n"
        "assert 'matplotlib.pyplot' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# ----------------------------------------------------------------------- in a browser
def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "/usr/bin/chromium"):
        found = shutil.which(name)
        if found:
            return found
    return None


_PROBE = """<script>
window.__errors = [];
window.addEventListener("error", e => window.__errors.push(
  (e.target && e.target.src) || e.message || "error"), true);
const log = console.error;
console.error = (...a) => { window.__errors.push(a.join(" ")); log(...a); };
// Bokeh draws after load, into canvases inside shadow roots: look through them.
const canvases = root => [...root.querySelectorAll("*")].reduce(
  (found, el) => el.shadowRoot ? found.concat(canvases(el.shadowRoot)) : found,
  [...root.querySelectorAll("canvas")]);
window.addEventListener("load", () => setTimeout(() => {
  const bad = [...document.images].filter(i => !i.complete || i.naturalWidth === 0);
  const plots = [...document.querySelectorAll("[data-root-id]")];
  const drawn = plots.filter(p => canvases(p).some(c => c.width > 0 && c.height > 0));
  const fetched = performance.getEntriesByType("resource").map(e => e.name);
  const out = document.createElement("pre");
  out.id = "probe";
  out.textContent = JSON.stringify({images: document.images.length,
    broken: bad.map(i => i.getAttribute("data-file")), plots: plots.length,
    drawn: drawn.length, fetched: fetched, errors: window.__errors,
    findings: !!document.querySelector("section#findings h2")});
  document.body.appendChild(out);
}, 1000));
</script>"""


@pytest.mark.skipif(_chromium() is None, reason="no headless Chromium installed")
@pytest.mark.parametrize("name", SWEEPS)
def test_page_renders_offline_in_headless_chromium(reports: dict[str, Path], name: str) -> None:
    page = reports[name]
    probe = page.parent / "probe.html"
    text = page.read_text(encoding="utf-8")
    probe.write_text(text.replace("<head>", "<head>" + _PROBE, 1), encoding="utf-8")
    # No network: every request to anywhere but the page itself fails.
    dom = subprocess.run(
        [_chromium(), "--headless", "--no-sandbox", "--disable-gpu",
         "--proxy-server=socks5://127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND",
         "--virtual-time-budget=15000", "--dump-dom", probe.as_uri()],
        capture_output=True, text=True, timeout=90, check=True,
    ).stdout  # fmt: skip
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, dom[-2000:]
    result = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert result["images"] == len(parse(page).images) > 0
    assert result["broken"] == []
    assert result["plots"] == text.count("data-root-id=") > 0
    assert result["drawn"] == result["plots"]
    assert result["fetched"] == []  # everything the page shows is inside it
    assert result["errors"] == []
    assert result["findings"]


def _stand_in_kernel(rules, games, seed, policies="random", *, first_game=0, **_):
    """Deterministic rows in the kernel's shape: the report reads only the rows."""
    import numpy as np

    g = np.arange(first_game, first_game + games)
    n = rules.players
    df = pd.DataFrame(
        {
            "game": g,
            "first": (g % n).astype("int8"),
            "winner": ((g // 3) % n).astype("int8"),
            "turns": (100 + 10 * (rules.six_limit == 3) + g % 17).astype("int32"),
            "truncated": np.zeros(games, bool),
        }
    )
    for s in range(n):  # the winner first, as the engines place it
        df[f"place_{s}"] = np.where(df["winner"] == s, 1, 2).astype("int8")
    return df


@pytest.fixture
def stand_in_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    from ludosim.sweep import execute as sweep_execute

    monkeypatch.setattr(sweep_execute, "_kernel", lambda: _stand_in_kernel)


def _sweep(tmp_path: Path, name: str, **options: object) -> Path:
    from ludosim.sweep import run_sweep

    spec = SweepSpec.from_options(games=60, seed=3, **options)  # type: ignore[arg-type]
    run_sweep(spec, tmp_path / name)
    return make_report(tmp_path / name, tmp_path / f"{name}-report")


def _png_height(path: Path) -> int:
    return int.from_bytes(path.read_bytes()[20:24], "big")  # IHDR height


def test_grid_sweep_gets_factorial_effects(tmp_path: Path, stand_in_kernel: None) -> None:
    page = _sweep(tmp_path, "grid", preset="app", vary=["six_limit=0,3", "finish=exact,bounce"])
    effects = pd.read_csv(page.parent / "factorial_effects.csv")
    # The stand-in kernel adds 10 turns under six_limit=3: 2.5 rounds with four players.
    rounds = effects.set_index("label")["length_estimate"]
    assert rounds.to_dict() == pytest.approx(  # six_limit: low 0, high 3
        {"six_limit 0 -> 3": 2.5, "finish exact -> bounce": 0.0, "six_limit x finish": 0.0}
    )
    pngs = {p.name for p in page.parent.glob("*.png")}
    assert {"factorial_effects.png", "length_grid.png", "first_player_advantage_grid.png"} <= pngs
    assert "toggle_effects.png" not in pngs  # a full grid has no single base


def test_a_36_cell_grid_gets_forests_and_small_multiples_but_no_overlay(
    tmp_path: Path, stand_in_kernel: None
) -> None:
    vary = ["six_limit=0,3", "finish=exact,bounce", "pass_opponents=all,singles,none",
            "players=2,3,4"]  # fmt: skip
    page = _sweep(tmp_path, "big", preset="app", sets=["first_player=seat0"], vary=vary)
    folder = page.parent
    pngs = {p.name for p in folder.glob("*.png")}
    assert {"length.png", "first_player_advantage.png", "length_grid.png", "win_rates.png"} <= pngs
    assert "length_distribution.png" not in pngs  # 36 overlaid distributions hide each other
    # one row per cell: the forest grows with the cells instead of squeezing them
    small = _sweep(tmp_path, "small", preset="app", vary=["six_limit=0,3"])
    assert _png_height(folder / "length.png") > 4 * _png_height(small.parent / "length.png")
    assert "length_distribution.png" in {p.name for p in small.parent.glob("*.png")}
    # the caption summarises 36 cells instead of listing them
    caption = parse(page).captions[0]
    assert "36 cells (each listed in cells.csv) of preset app with first_player=seat0" in caption
    assert "six_limit=0 finish=exact pass_opponents=all players=2" in page.read_text("utf-8")
    # 36 per-cell statements are folded under each headline; the headlines stay open
    parsed = parse(page)
    assert parsed.topics == ["How to read these findings", "Toggle effects", "Interactions",
                             "Game length", "First-player advantage"]  # fmt: skip
    assert parsed.folded >= 2 and 36 > OPEN_DETAILS
    assert "<summary>All 36 statements behind this</summary>" in page.read_text("utf-8")
    assert parsed.headline[0] and parsed.headline.count(False) >= 2 * 36
    assert not parse(small).folded


@pytest.mark.parametrize(
    ("target", "sentence"),
    [
        ("10pp", "Precision target ±10 pp on the first-player advantage (half-width of its 95% "
                 "interval): met in 2 of 2 cells."),
        ("0.5pp", "Precision target ±0.5 pp on the first-player advantage (half-width of its "
                  "95% interval): met in 0 of 2 cells; of the others, 2 would need more than "
                  "the sweep's max_games."),
        ("5turns", "Precision target ±5 turns on the mean game length (half-width of its 95% "
                   "interval): met in 2 of 2 cells."),
    ],
)  # fmt: skip
def test_the_report_says_whether_the_precision_target_was_met(
    tmp_path: Path, stand_in_kernel: None, target: str, sentence: str
) -> None:
    from ludosim.sweep import precision_status, run_sweep

    spec = SweepSpec.from_options(preset="app", vary=["six_limit=0,3"], precision=target,
                                  pilot=200, max_games=2000, seed=3)  # fmt: skip
    run_sweep(spec, tmp_path / "run")
    page = make_report(tmp_path / "run", tmp_path / "report")
    text = html.unescape(page.read_text(encoding="utf-8"))
    found = text.index('<section id="findings">')
    assert found < text.index(sentence) < text.index("<h3>Game length</h3>")
    status = precision_status(tmp_path / "run")
    for row in status.itertuples():  # the per-cell table carries the status
        assert f"<td>{row.games}</td>" in text and f"<td>{row.half_width:.3f}</td>" in text
        assert f"<td>{'yes' if row.met else 'no'}</td>" in text


def test_no_precision_sentence_without_a_target(reports: dict[str, Path]) -> None:
    for page in reports.values():
        assert "Precision target" not in page.read_text(encoding="utf-8")


def test_p_values_in_tables_are_never_zero() -> None:
    html = html_table(pd.DataFrame({"cell": ["c0", "c1", "c2"], "p_value": [0.0, 3e-20, 0.0123]}))
    cells = re.findall(r"<td>([^<]*)</td>", html)
    assert cells == ["c0", "&lt; 1e-16", "c1", "&lt; 1e-16", "c2", "0.0123"]


def test_a_tournament_gets_a_policy_ranking_instead_of_toggle_effects(
    tmp_path: Path, stand_in_kernel: None
) -> None:
    rotations = ["policies=[aggressive,runner],[runner,aggressive]"]
    page = _sweep(tmp_path, "tournament", preset="app", sets=["players=2"], vary=rotations)
    pngs = {p.name for p in page.parent.glob("*.png")}
    assert "policy_ranking.png" in pngs
    assert "toggle_effects.png" not in pngs
    assert parse(page).images.count("policy_ranking.png") == 1


def test_labels_spell_values_as_the_command_line_does(
    tmp_path: Path, stand_in_kernel: None
) -> None:
    page = _sweep(
        tmp_path, "spelling", preset="app", vary=["pass_own=true,false", "safe=[],[starts]"]
    )
    text = page.read_text(encoding="utf-8")
    assert "pass_own=true safe={}" in text and "pass_own=false safe=starts" in text
    assert not re.search(r"=(True|False)\b|safe=(\s|&)", text)
    cells = pd.DataFrame({"cell": ["c0", "c1"], "name": ["safe= pass_own=True", "base"]})
    assert cell_labels(cells) == {"c0": "safe={} pass_own=true", "c1": "base"}


def test_unwritable_output_folder_is_one_clear_error(tmp_path: Path) -> None:
    from ludosim.rules.errors import LudosimError

    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(LudosimError, match="cannot create the report folder"):
        make_report(FIXTURE / "skip", blocker / "report")


def test_a_page_of_games_ended_by_points_counts_the_level_ones_and_says_with_a_winner(
    tmp_path: Path,
) -> None:
    """Under a move limit the winner need not have finished and a game may end level: the
    page says how many ended level, of how many, and calls win shares "with a winner"."""
    from ludosim.sweep import run_sweep

    spec = SweepSpec.from_options(
        preset="king", sets=["players=2", "scoring=steps", "start_out=4"],
        vary=["move_limit=0,3"], games=600, seed=3,
    )  # fmt: skip
    run_sweep(spec, tmp_path / "run")
    rows = results.load(tmp_path / "run", cells=True)
    limited = rows[rows["move_limit"] == 3]
    level = int((limited["winner"] < 0).sum())
    assert level > 0  # three turns each from the same start: some games end level
    page = make_report(tmp_path / "run", tmp_path / "report")
    text = html.unescape(page.read_text(encoding="utf-8"))
    share = f"{100 * level / len(limited):.1f}%"
    assert f"Of the {len(limited):,} games whose move limit ends them by points, " in text
    assert f"{level:,} ({share}) ended level: they have no winner." in text
    assert "<dt>with a winner</dt>" in text and "with a finisher" not in text
