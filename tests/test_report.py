"""`make_report` on the small checked-in sweeps: files, captions, commands, images.

Figures are drawn with the Agg canvas. The browser check runs when a headless
Chromium is installed (CI installs one) and is skipped otherwise.
"""

from __future__ import annotations

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
from ludosim.report import SPEC_FILE, make_report, sweep_command
from ludosim.sweep import SweepSpec, spec_hash

FIXTURE = Path(__file__).parent / "fixtures" / "results_small"
SWEEPS = ("toggles", "skip")


class _Page(HTMLParser):
    """Image sources, links and figure captions of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.images: list[str] = []
        self.links: list[str] = []
        self.captions: list[str] = []
        self._caption: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "img":
            self.images.append(values["src"] or "")
        elif tag == "a":
            self.links.append(values["href"] or "")
        elif tag == "figcaption":
            self._caption = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "figcaption" and self._caption is not None:
            self.captions.append(" ".join("".join(self._caption).split()))
            self._caption = None

    def handle_data(self, data: str) -> None:
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
        assert (page.parent / link).is_file(), link
    for png in pngs:
        assert (page.parent / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


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
    assert {"tornado.png", "length-app.png", "length-danish.png", "win_rates.png"} <= {
        p.name for p in toggles.glob("*.png")
    }
    assert not (toggles / "skip_cost.png").exists()
    effects = pd.read_csv(toggles / "toggle_effects.csv")
    assert len(effects) == 4
    skip = reports["skip"].parent
    assert (skip / "skip_cost.png").is_file()
    assert not (skip / "tornado.png").exists()
    assert set(pd.read_csv(skip / "win_table.csv")["policy"]) == {"balanced", "skipper:1"}
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
    command = sweep_command(manifest["spec"], FIXTURE / name)
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


def test_sweep_command_gives_way_to_the_file_for_variants_with_settings() -> None:
    spec = {
        "preset": None,
        "variants": [{"name": "fast", "preset": "app", "set": {"six_limit": 0}}],
        "games": 10,
        "seed": 1,
    }
    assert sweep_command(spec, "runs/x") is None


def test_report_of_a_single_results_file(tmp_path: Path) -> None:
    df = results.load(FIXTURE / "toggles" / "rows" / "cell=c000")
    file = tmp_path / "app.parquet"
    df.drop(columns="cell").to_parquet(file)
    page = make_report(file, tmp_path / "report", title="One run")
    parsed = parse(page)
    assert "<title>One run</title>" in page.read_text(encoding="utf-8")
    assert sorted(parsed.images) == ["length.png", "win_rates.png"]
    assert all("300 games per cell" in c for c in parsed.captions)


def test_importing_the_report_loads_no_matplotlib_and_drawing_uses_no_pyplot(
    tmp_path: Path,
) -> None:
    code = (
        "import sys; import ludosim.report as r\n"
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
window.addEventListener("load", () => {
  const bad = [...document.images].filter(i => !i.complete || i.naturalWidth === 0);
  const out = document.createElement("pre");
  out.id = "probe";
  out.textContent = JSON.stringify({images: document.images.length,
    broken: bad.map(i => i.getAttribute("src")), errors: window.__errors});
  document.body.appendChild(out);
});
</script>"""


@pytest.mark.skipif(_chromium() is None, reason="no headless Chromium installed")
@pytest.mark.parametrize("name", SWEEPS)
def test_page_loads_in_headless_chromium(reports: dict[str, Path], name: str) -> None:
    import json

    page = reports[name]
    probe = page.parent / "probe.html"
    probe.write_text(
        page.read_text(encoding="utf-8").replace("<head>", "<head>" + _PROBE, 1),
        encoding="utf-8",
    )
    dom = subprocess.run(
        [_chromium(), "--headless", "--no-sandbox", "--disable-gpu",
         "--virtual-time-budget=10000", "--dump-dom", probe.as_uri()],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, dom[-2000:]
    result = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert result["images"] == len(parse(page).images) > 0
    assert result["broken"] == []
    assert result["errors"] == []


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
    for s in range(n):
        df[f"place_{s}"] = np.int8(1)
    return df


@pytest.fixture
def stand_in_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    from ludosim.sweep import execute as sweep_execute

    monkeypatch.setattr(sweep_execute, "_kernel", lambda: _stand_in_kernel)


def test_grid_sweep_gets_factorial_effects(tmp_path: Path, stand_in_kernel: None) -> None:
    from ludosim.sweep import run_sweep

    spec = SweepSpec.from_options(
        preset="app", vary=["six_limit=0,3", "finish=exact,bounce"], games=60, seed=3
    )
    run_sweep(spec, tmp_path / "grid")
    page = make_report(tmp_path / "grid", tmp_path / "report")
    effects = pd.read_csv(page.parent / "factorial_effects.csv")
    turns = effects[effects["response"] == "turns"].set_index("term")["effect"]
    assert turns.to_dict() == pytest.approx(  # six_limit: low 0, high 3
        {"six_limit": 10.0, "finish": 0.0, "six_limit x finish": 0.0}
    )
    assert not (page.parent / "tornado.png").exists()  # a full grid has no single base


def test_unwritable_output_folder_is_one_clear_error(tmp_path: Path) -> None:
    from ludosim.errors import LudosimError

    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(LudosimError, match="cannot create the report folder"):
        make_report(FIXTURE / "skip", blocker / "report")
