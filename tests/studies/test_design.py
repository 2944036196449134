"""The house-rule designer: it finds planted effects, the known optimum, and states measured
values; its study grammar; its page's explorer in a browser.

The designer's statistics are checked on a test double of the measures (no kernel): every
rule set's per-game rows are drawn from a known function of its free toggles' codes, so
the screening's active toggles, the search's optimum and the confirmation's values are
known in advance. The kernel plays a design in `tests/project/test_readme.py` (the README example).
"""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from design_helpers import stage_double

from ludosim.report.explorer import predictions_html
from ludosim.results.measures import DESIGN_MEASURES, MEASURES
from ludosim.studies import design as d
from ludosim.studies.design import page as design_page

# The planted truth: rounds = 100 + 8 x_finish - 12 x_pass_opponents + 3 x_finish x_pass
# (x = -1 at the preset's value, +1 at the alternative); the relative skill level
# RS = 0.5 + 0.1 x_six_limit; nothing else moves anything.
FREE = ["finish", "pass_opponents", "six_limit", "start_attempts", "bonus_on_six"]


def truth(codes: np.ndarray, free: list[str]) -> dict[str, np.ndarray]:
    x = {name: codes[:, i] for i, name in enumerate(free)}
    return {
        "rounds": 100
        + 8 * x["finish"]
        - 12 * x["pass_opponents"]
        + 3 * x["finish"] * x["pass_opponents"],
        "skill": 0.5 + 0.1 * x["six_limit"],
    }


double = stage_double(truth)  # a stage's measures drawn around the planted truth


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> d.DesignTables:
    study = d.study_from_options(
        "app",
        7,
        free=FREE,
        goals=["short", "skill"],
        limits=["skill>=0.45"],
        screen_games=4000,
        skill_games=8000,
        holdout=6,
        candidates=3,
        confirm_games=4000,
    )
    out = tmp_path_factory.mktemp("design")
    found = d.play_study(study, out, player=double)
    d.write_tables(found, out)
    d.study_page(found, out)
    return found


def test_the_screening_finds_the_planted_effects_and_nothing_else(
    tables: d.DesignTables,
) -> None:
    found = d.decide(tables)
    (family,) = found.families
    assert family.size == len(tables.effects) + len(tables.comparisons)
    effects = tables.effects.assign(
        resolved=[t.resolved for t in family.tests[: len(tables.effects)]]
    )
    length = effects[(effects["measure"] == "length") & effects["resolved"]]
    assert set(length["term"]) == {
        "finish exact -> bounce",
        "pass_opponents none -> all",
        "finish x pass_opponents",
    }
    # A main effect is the difference of the means at the two levels: twice the coefficient.
    by = length.set_index("term")["estimate"]
    assert by["finish exact -> bounce"] == pytest.approx(16, abs=1)
    assert by["pass_opponents none -> all"] == pytest.approx(-24, abs=1)
    assert by["finish x pass_opponents"] == pytest.approx(6, abs=1)
    skill = effects[(effects["measure"] == "skill") & effects["resolved"]]
    assert set(skill["term"]) == {"six_limit 3 -> 0"}
    # No planted effect on fairness or comebacks: nothing resolved there. (Counts per
    # round do move: the double's counts per game stay while the rounds change.)
    others = effects[effects["measure"].isin(["first", "imbalance", "comebacks"])]
    assert not others["resolved"].any()


def test_the_search_returns_the_known_optimum_within_the_limits(tables: d.DesignTables) -> None:
    plan = tables.plan
    free = [f.toggle for f in plan.free]
    codes = d.all_codes(len(free))
    true = truth(codes, free)
    feasible = true["skill"] >= 0.45
    top = tables.search.iloc[0]
    index = [tuple(int(x) for x in row) for row in codes].index(top["codes"])
    # The known optimum: finish exact, pass_opponents all, six_limit 0 (for the skill
    # limit), 100 - 8 - 12 - 3 = 77 rounds; the two toggles that move nothing are free.
    assert top["feasible"] and feasible[index]
    assert true["rounds"][index] == true["rounds"][feasible].min() == 77
    assert top["length"] == pytest.approx(77, abs=1.5)
    assert top["length_low"] < 77 < top["length_high"]


def test_the_confirmation_reports_measured_values(tables: d.DesignTables) -> None:
    confirmed = tables.confirmed
    assert len(confirmed) >= 1 and set(confirmed["standing"]) <= set(d.STANDINGS)
    assert list(confirmed["standing"]).count(d.RECOMMENDED) == 1
    best = d.decide(tables).findings
    # The answer first, as a rules card a family reads (a decision departing from the
    # preset on a resolved difference, with its interval), then the procedure behind it.
    card, note = [f for f in best if f.topic == "recommend" and f.headline]
    assert (card.kind, note.kind) == ("decision", "note")
    assert card.resolved and card.basis == d.decision.CHANGE_RESOLVED
    assert card.ci_high < -1  # shorter than the preset by more than a round
    # The preset as it is stands among the candidates, behind the change.
    assert confirmed.set_index("point").loc[d.PRESET, "standing"] == d.AS_IS
    # The recommended rule set has pass_opponents=all (the known optimum's one change
    # that matters for length besides finish, which the preset already has).
    (pick,) = confirmed.loc[confirmed["standing"] == d.RECOMMENDED, "label"]
    assert "pass_opponents=all" in pick
    assert f": {pick} (game length" in note.text
    assert f"--set {pick.split()[0]}" in card.text and "rounds on average" in card.text
    for point in confirmed["point"]:
        rows = tables.measures[
            (tables.measures["point"] == point) & (tables.measures["stage"] == "confirm")
        ]
        length = rows[rows["measure"] == "length"].iloc[-1]
        assert length["ci_low"] < length["estimate"] < length["ci_high"]
    # The checks compare predictions with measurements the model was not fitted on.
    assert set(tables.checks["stage"]) >= {"holdout"}
    assert tables.checks["inside"].mean() >= 0.8


def test_every_stage_plays_games_no_other_stage_played(tables: d.DesignTables) -> None:
    stages = tables.stages.set_index("stage")
    assert list(stages.index) == ["screen", "holdout", "confirm"]
    seeds = stages["seed"].astype(int)
    assert seeds["screen"] == tables.study.seed
    assert seeds.nunique() == len(seeds)
    # Distinct master seeds give unrelated streams: no game key of one stage is a game
    # key of another (the first games of each, from ludosim.rules.streams).
    from ludosim.rules.streams import stream_key

    keys = [{stream_key(int(s), g) for g in range(2000)} for s in seeds]
    assert all(not (a & b) for i, a in enumerate(keys) for b in keys[i + 1 :])


def test_a_standing_is_better_or_worse_only_beyond_the_smallest_effect() -> None:
    # Gains against the preset on the first goal (length: smallest effect 1 round), in a
    # family of 20 comparisons: standing(resolved, gain, se, ci_low, ci_high, 1.0, 20).
    assert d.standing(True, 1.5, 0.2, 1.1, 1.9, 1.0, 20) == d.BETTER
    assert d.standing(True, -1.5, 0.2, -1.9, -1.1, 1.0, 20) == d.WORSE
    # Resolved, the interval reaching the smallest effect: better or worse, possibly small.
    assert d.standing(True, 1.005, 0.04, 0.93, 1.08, 1.0, 20) == d.BETTER
    assert d.standing(True, -1.005, 0.04, -1.08, -0.93, 1.0, 20) == d.WORSE
    # Resolved, but the whole interval within the smallest effect: a change too small.
    assert d.standing(True, 0.88, 0.03, 0.82, 0.94, 1.0, 20) == d.SMALL_BETTER
    assert d.standing(True, -0.88, 0.03, -0.94, -0.82, 1.0, 20) == d.SMALL_WORSE
    # Not resolved: equally good only where the interval at the family's level
    # (Bonferroni over 20: z = 3.02) lies within the smallest effect.
    assert d.standing(False, 0.2, 0.1, 0.0, 0.4, 1.0, 20) == d.EQUALLY_GOOD
    assert d.standing(False, 0.2, 0.3, -0.4, 0.8, 1.0, 20) == d.NOT_APART


def _decision_inputs(
    gains: dict[str, tuple[bool, float, float]], changes: dict[str, int]
) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, float]]:
    """A confirmation of a goal to shorten games: each candidate's (resolved, gain in
    rounds against the preset, se); the best measured is the largest gain."""
    confirmed = pd.DataFrame(
        {"point": [d.PRESET, *gains], "changes": [0, *(changes[p] for p in gains)]}
    )
    rows = []
    for p, (resolved, gain, se) in gains.items():
        rows.append(
            {"kind": "vs preset", "measure": "length", "point": p, "other": d.PRESET,
             "estimate": -gain, "ci_low": -gain - 1.96 * se, "ci_high": -gain + 1.96 * se,
             "se": se, "resolved": resolved}
        )  # fmt: skip
    best = max(gains, key=lambda p: gains[p][1])
    for p, (_, gain, se) in gains.items():
        if p != best:
            gap = gains[best][1] - gain
            rows.append(
                {"kind": "vs best", "measure": "length", "point": p, "other": best,
                 "estimate": gap, "ci_low": gap - 1.96 * se, "ci_high": gap + 1.96 * se,
                 "se": se, "resolved": gap > 2.5 * se}
            )  # fmt: skip
    values = {d.PRESET: 100.0, **{p: 100.0 - g for p, (_, g, _) in gains.items()}}
    return confirmed, pd.DataFrame(rows), values


def test_the_recommendation_is_the_preset_unless_a_change_is_resolved_better() -> None:
    changes = {"k00": 4, "k01": 1, "k02": 2}
    # Nothing resolved: the preset as it is, whatever the point estimates.
    gains = {"k00": (False, 0.6, 0.5), "k01": (False, 0.3, 0.5), "k02": (False, -0.2, 0.5)}
    rec = d.recommend(*_decision_inputs(gains, changes)[:2], "short", 30, {})
    assert (rec.pick, rec.basis, rec.changes) == (d.PRESET, d.decision.NONE_RESOLVED, False)
    assert rec.standings[d.PRESET] == d.RECOMMENDED
    # A gain resolved but too small to matter (the whole interval within a round) is no
    # reason to change the rules.
    gains = {"k00": (True, 0.5, 0.05), "k01": (False, 0.3, 0.5), "k02": (False, 0.1, 0.5)}
    rec = d.recommend(*_decision_inputs(gains, changes)[:2], "short", 30, {})
    assert rec.pick == d.PRESET and rec.standings["k00"] == d.SMALL_BETTER
    # A gain that matters: that change; its standing and the preset's say so.
    gains = {"k00": (True, 3.0, 0.3), "k01": (False, 0.3, 0.5), "k02": (False, 0.1, 0.5)}
    confirmed, comparisons, values = _decision_inputs(gains, changes)
    rec = d.recommend(confirmed, comparisons, "short", 30, values)
    assert (rec.pick, rec.basis) == ("k00", d.decision.CHANGE_RESOLVED)
    assert rec.standings == {
        d.PRESET: d.AS_IS,
        "k00": d.RECOMMENDED,
        "k01": d.NOT_APART,
        "k02": d.NOT_APART,
    }


def test_among_the_better_ones_not_told_apart_the_fewest_changes_win() -> None:
    changes = {"k00": 4, "k01": 1, "k02": 2}
    # Two changes resolved better, not told apart from each other: the one with fewer
    # changes; one resolved worse than the best by a margin that matters is out.
    gains = {"k00": (True, 3.0, 0.3), "k01": (True, 2.6, 0.3), "k02": (True, 1.4, 0.1)}
    confirmed, comparisons, values = _decision_inputs(gains, changes)
    rec = d.recommend(confirmed, comparisons, "short", 30, values)
    assert rec.pick == "k01"
    assert rec.standings["k00"] == d.BETTER and rec.standings["k02"] == d.BETTER
    without = _decision_inputs({"k00": gains["k00"], "k02": gains["k02"]}, changes)
    assert d.recommend(*without[:2], "short", 30, without[2]).pick == "k00"


def test_the_recommendation_is_resolved_better_than_the_preset(
    tables: d.DesignTables,
) -> None:
    confirmed = tables.confirmed.set_index("point")
    (pick,) = confirmed.index[confirmed["standing"] == d.RECOMMENDED]
    page = d.decided(tables).comparisons
    row = page[(page["kind"] == "vs preset") & (page["point"] == pick)]
    row = row[row["measure"] == "length"].iloc[0]
    assert row["resolved"] and row["ci_low"] < row["ci_high"] < 0


def test_lack_of_fit_is_a_variance_that_does_not_shrink_with_games() -> None:
    # 64 rule sets, two toggles that act, true misfit sd 0.5 around the model, each
    # estimate's noise sd 0.2: the moment estimate of tau^2 = 0.25 is close (its sd
    # is about sqrt(2 (0.25 + 0.04)^2 / 64) = 0.05; tolerance 4 sd).
    rng = np.random.default_rng(11)
    codes = d.all_codes(6)
    y = 10 + 2 * codes[:, 0] - codes[:, 1] + rng.normal(0, 0.5, 64) + rng.normal(0, 0.2, 64)
    table = pd.DataFrame({"estimate": y, "se": np.full(64, 0.2)})
    model = d.fit_model("length", codes, table, [(i,) for i in range(6)])
    assert model.misfit == pytest.approx(0.25, abs=0.2)
    # The interval of a measurement with no noise of its own keeps the lack of fit.
    _, low, high = model.predict(codes[:1], 0.0)
    assert (high - low)[0] / 2 >= 1.95 * math.sqrt(model.misfit)
    # Without misfit, the estimate is near zero and the interval is the noise's.
    exact = table.assign(estimate=10 + 2 * codes[:, 0] - codes[:, 1] + rng.normal(0, 0.2, 64))
    assert d.fit_model("length", codes, exact, [(i,) for i in range(6)]).misfit < 0.02


def test_the_aliases_of_a_resolution_v_design_are_listed() -> None:
    plan = d.plan_study(d.study_from_options("app", 1, free=FREE))
    aliases = d.alias_table(plan)
    # Five toggles in 16 rule sets (2^(5-1), generator E = ABCD): each of the ten
    # two-toggle interactions shares its column with exactly one three-toggle one.
    assert len(aliases) == 10 and aliases["term"].is_unique
    names = [f.toggle for f in plan.free]
    for r in aliases.itertuples(index=False):
        pair = [names.index(x) for x in r.term.split(" x ")]
        triple = [names.index(x) for x in r.aliased_with.split(" x ")]
        x = plan.codes[:, pair].prod(axis=1)
        y = plan.codes[:, triple].prod(axis=1)
        assert np.array_equal(x, r.sign * y)


def test_tables_round_trip_to_the_same_findings(tables: d.DesignTables, tmp_path: Path) -> None:
    d.write_tables(tables, tmp_path)
    again = d.read_tables(tmp_path)
    assert [f.text for f in d.decide(again).findings] == [f.text for f in d.decide(tables).findings]


def test_findings_json_is_the_page(tables: d.DesignTables, tmp_path: Path) -> None:
    page = d.study_page(tables, tmp_path)
    import html

    records = json.loads((tmp_path / "findings.json").read_text())
    text = html.unescape(page.read_text())
    assert records and all(r["text"] in text for r in records)


# ------------------------------------------------------------------------- grammar
def test_limits_and_free_toggles_are_read_and_refused_clearly() -> None:
    assert d.parse_limit("length<=90 rounds") == d.Limit("length", "<=", 90.0)
    assert d.parse_limit("skill>=+0.5 RS") == d.Limit("skill", ">=", 0.5)
    for bad, message in (
        ("lenght<=90", "unknown measure"),
        ("length=90", "is not MEASURE"),
        ("skill>=5 rounds", "skill is in RS"),
    ):
        with pytest.raises(d.DesignError, match=message):
            d.parse_limit(bad)
    (finish,) = d.parse_free(["finish"], "app")
    assert finish.values == ("exact", "bounce")
    (six,) = d.parse_free(["six_limit=3,0"], "app")
    assert six.values == (3, 0)
    with pytest.raises(d.DesignError, match="screens two values"):
        d.parse_free(["finish=exact,bounce,bounce_on"], "app")
    with pytest.raises(d.DesignError, match="unknown toggle"):
        d.parse_free(["finnish"], "app")
    with pytest.raises(d.DesignError, match="goal 'fast' is unknown"):
        d.study_from_options("app", 1, goals=["fast"])


def test_a_toggle_that_cannot_act_anywhere_is_dropped_with_its_reason() -> None:
    # No safe squares under app: safe_landing cannot act in any rule set of the design.
    study = d.study_from_options("app", 1, free=["finish", "pass_opponents", "safe_landing"])
    plan = d.plan_study(study)
    assert [f.toggle for f in plan.free] == ["finish", "pass_opponents"]
    assert plan.dropped == (
        ("safe_landing", "cannot act in any rule set of the design (no square is safe (safe={}))"),
    )
    # With safe free too, safe_landing acts where there are safe squares: it stays.
    both = d.plan_study(d.study_from_options("app", 1, free=["finish", "safe", "safe_landing"]))
    assert [f.toggle for f in both.free] == ["finish", "safe", "safe_landing"]


def test_rule_sets_that_play_the_same_games_are_one_candidate_with_fewer_changes() -> None:
    # Danish blocks send the lander home, so capture_rule=lone_piece cannot act there:
    # that rule set is the preset's own game. With blocks that coexist it acts.
    plan = d.plan_study(d.study_from_options("danish", 1, free=["block_landing", "capture_rule"]))
    codes = d.all_codes(2)
    same = dict(zip([plan.label(row) for row in codes], d.same_games_as(plan, codes), strict=True))
    assert same == {
        "(the preset's own)": "",
        "block_landing=coexist": "",
        "capture_rule=lone_piece": "(the preset's own)",
        "block_landing=coexist capture_rule=lone_piece": "",
    }


def test_a_resolution_v_design_estimates_every_pair_apart() -> None:
    plan = d.plan_study(d.study_from_options("app", 1, free=FREE))
    codes = plan.codes
    columns = [codes[:, list(t)].prod(axis=1) for t in d.terms(len(FREE))]
    matrix = np.column_stack([np.ones(len(codes)), *columns])
    # Main effects and two-toggle interactions are orthogonal: none aliased with another.
    gram = matrix.T @ matrix
    assert np.allclose(gram, len(codes) * np.eye(gram.shape[0]))


# ------------------------------------------------------------------------ explorer
def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


_PROBE = """<script>
window.addEventListener("load", () => setTimeout(() => {
  const doc = Bokeh.documents[0];
  const before = doc.get_model_by_name("predictions").text;
  const select = doc.get_model_by_name("free-finish");
  select.value = select.options[1];
  // A CustomJS callback runs asynchronously: read the table once it has.
  setTimeout(() => {
    const after = doc.get_model_by_name("predictions").text;
    const pre = document.createElement("pre");
    pre.id = "probe";
    pre.textContent = JSON.stringify({before, after});
    document.body.appendChild(pre);
  }, 1000);
}, 1500));
</script>"""


@pytest.mark.skipif(_chromium() is None, reason="no headless Chromium installed")
def test_the_explorer_predicts_in_the_browser(tables: d.DesignTables, tmp_path: Path) -> None:
    """Change a menu: the numbers change to the model's values for that rule set."""
    page = d.study_page(tables, tmp_path)
    probe = tmp_path / "probe.html"
    probe.write_text(page.read_text().replace("<head>", "<head>" + _PROBE, 1))
    dom = subprocess.run(
        [
            _chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--proxy-server=socks5://127.0.0.1:9",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--virtual-time-budget=15000",
            "--dump-dom",
            probe.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, dom[-2000:]
    import html

    result = json.loads(html.unescape(found.group(1)))
    models = d.explorer_models(tables)
    k = len(tables.plan.free)
    start = [-1.0] * k
    changed = list(start)
    changed[[f.toggle for f in tables.plan.free].index("finish")] = 1.0
    measured = design_page._measured_by_codes(tables)
    assert result["before"] == predictions_html(models, start, measured)
    expected = predictions_html(models, changed, measured)
    for got, want in zip(result["after"].split("<tr"), expected.split("<tr"), strict=True):
        assert got == want
    assert result["after"] != result["before"]


def test_the_model_check_is_per_measure_and_two_sided() -> None:
    # 20 held-out rule sets: length held by 10 (too narrow), captures by all 20
    # (consistent: the exact interval 83% to 100% holds 95%); a pooled share (75%) would
    # hide which measure misses.
    checks = pd.DataFrame(
        {
            "stage": "holdout",
            "point": [f"h{i}" for i in range(20)] * 2,
            "measure": ["length"] * 20 + ["captures"] * 20,
            "inside": [True] * 10 + [False] * 10 + [True] * 20,
        }
    )
    by = d.coverage_by_measure(checks)
    assert by["length"].verdict == "too narrow"
    assert by["captures"].verdict == "consistent"
    assert by["captures"].low == pytest.approx(0.8316, abs=1e-3)  # (0.025)^(1/20)
    # What such a check can find: all inside clears 95% only from 72 checks on
    # ((0.025)^(1/72) = 0.9500 5, (0.025)^(1/71) = 0.9494); 8 checks find intervals too
    # narrow only at 5 or fewer inside (6 of 8: exact upper bound 0.968).
    from ludosim.report.coverage import coverage_check, coverage_reach

    assert coverage_check(72, 72).verdict == "too wide"
    assert coverage_check(71, 71).verdict == "consistent"
    assert coverage_check(5, 8).verdict == "too narrow"
    assert coverage_check(6, 8).verdict == "consistent"
    assert "at most 5 are inside" in coverage_reach(8)
    assert "cannot find them too wide (that needs 72 or more" in coverage_reach(8)
    assert "too wide" not in coverage_reach(72)


def test_a_lack_of_fit_from_the_holdout_has_the_holdouts_degrees_of_freedom() -> None:
    # The screening fits exactly (no misfit of its own); eight held-out rule sets scatter
    # by sd 2 around it: their misfit is kept, with 8 degrees of freedom, not the
    # screening's 58.
    rng = np.random.default_rng(5)
    codes = d.all_codes(6)
    y = 10 + 2 * codes[:, 0] + rng.normal(0, 0.01, 64)
    table = pd.DataFrame({"estimate": y, "se": np.full(64, 0.01)})
    model = d.fit_model("length", codes, table, [(i,) for i in range(6)])
    assert model.df == 64 - 7
    held = codes[:8] * -1
    measured = 10 - 2 * codes[:8, 0] + rng.normal(0, 2, 8)
    wider = d.with_held_out_misfit(model, held, measured, np.full(8, 0.01))
    assert wider.misfit > 0.5 and wider.df == 8
    # A holdout that shows no misfit beyond the screening's keeps the screening's count.
    calm = d.with_held_out_misfit(model, held, 10 - 2 * codes[:8, 0], np.full(8, 0.01))
    assert calm.df == model.df


# ------------------------------------------------------------------------------ page
def _page_text(page: Path) -> str:
    """The page as a reader sees it: no scripts or styles, tags dropped, entities read."""
    import html

    text = re.sub(r"<(script|style)\b.*?</\1>", " ", page.read_text(), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


def test_the_explorers_menus_read_in_words(tables: d.DesignTables, tmp_path: Path) -> None:
    page = d.study_page(tables, tmp_path).read_text()
    for f in tables.plan.free:
        toggle, topic, values = d.menu_words(f)
        assert (toggle, topic) == (f.toggle, d.rule_words(f.toggle, f.values[0])[0])
        assert values == [d.rule_words(f.toggle, v)[1] for v in f.values]
        # Bokeh's document JSON: the menu's title and options in words, not the toggle.
        menu = f'"title":{json.dumps(topic)},"options":{json.dumps(values, separators=(",", ":"))}'
        assert menu in page
        assert f'"title":"{f.toggle}"' not in page
    # An empty set reads "none", never the command line's "{}", in the safe squares' own
    # words and in the fallback of a toggle without words of its own.
    for free in (d.Free("safe", ((), ("starts",))), d.Free("die_faces", ((), (1, 2, 3)))):
        _, _, values = d.menu_words(free)
        assert len(set(values)) == 2 and not any("{}" in v for v in values)
    assert d.rule_words("die_faces", ())[1] == "none"


def test_the_page_has_no_broken_image_or_link(tables: d.DesignTables, tmp_path: Path) -> None:
    from html.parser import HTMLParser

    class Refs(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.images: list[dict[str, str | None]] = []
            self.refs: list[str] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            values = dict(attrs)
            if tag == "img":
                self.images.append(values)
            self.refs += [v or "" for k, v in attrs if k in ("href", "src")]

    d.write_tables(tables, tmp_path)  # the tables' CSVs the page links to
    page = d.study_page(tables, tmp_path)
    parser = Refs()
    parser.feed(page.read_text())
    assert parser.images and all(i.get("src") for i in parser.images)
    local = [r for r in parser.refs if not re.match(r"(#|data:|[a-z][a-z0-9+.-]*:)", r)]
    assert local and all((tmp_path / r).is_file() for r in local), local
    # The explorer lives on the page only: no static image of it and no PNG link.
    assert 'data-file="explorer"' not in page.read_text()


def test_each_measure_has_one_unit_on_the_page(tables: d.DesignTables, tmp_path: Path) -> None:
    text = _page_text(d.study_page(tables, tmp_path))
    for name in DESIGN_MEASURES:
        m = MEASURES[name]
        # Column headings and axis labels: "first player's edge (% of a fair share)".
        for unit in re.findall(rf"{re.escape(m.title)} \(([^)0-9]*)\)", text):
            assert unit == m.unit, (m.title, unit)
        # Stated values: "first player's edge 0.4 % of a fair share (95% CI ...)".
        stated = list(re.finditer(rf"{re.escape(m.title)} [+-]?\d[\d.,]*\s*", text))
        assert stated, m.title
        for found in stated:
            # "1 round" is the singular of rounds, the same unit.
            said = text[found.end() : found.end() + 40]
            assert said.startswith(m.unit.removesuffix("s")), (m.title, said)
    # The glossary explains the first player's edge in the unit the page gives it, not pp.
    glossary = text.split(" Glossary ", 1)[1]
    edge = glossary.split("edge, relative edge", 1)[1].split(" round ", 1)[0]
    assert "% of a fair share" in edge and "pp" not in edge


def test_a_design_without_limits_says_none_were_asked(tmp_path: Path) -> None:
    study = d.study_from_options(
        "app",
        5,
        free=["finish", "pass_opponents", "six_limit"],
        screen_games=400,
        skill_games=400,
        holdout=2,
        candidates=2,
        confirm_games=400,
    )
    found = d.play_study(study, tmp_path, player=double)
    d.write_tables(found, tmp_path)
    text = _page_text(d.study_page(found, tmp_path))
    assert "no limits asked" in text
    for said in ("meet no limits", "rule out none", "within the limits"):
        assert said not in text, said
    # The front's legend too: its grey points are every rule set, not those within limits.
    from ludosim.report import figures

    fig = figures.front(found.search, "length", "skill", "x", "y", limits=False)
    legend = [t.get_text() for legend in fig.legends for t in legend.get_texts()]
    assert "every rule set (no limits asked)" in legend and "within the limits" not in legend


def test_the_reproduce_line_runs_the_same_study(
    tables: d.DesignTables, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import html
    import shlex

    from typer.testing import CliRunner

    from ludosim.cli.app import app

    page = d.study_page(tables, tmp_path)
    (line,) = re.findall(r"Generated by <code>(.*?)</code>", page.read_text(), re.S)
    words = shlex.split(html.unescape(line))
    assert words[0] == "ludosim" and "OUT" not in words and "&&" not in words
    assert words[words.index("--out") + 1] == str(tmp_path)
    played: list[d.DesignStudy] = []

    def run_study(study: d.DesignStudy, out: Path, **_: object) -> Path:
        played.append(study)
        return page

    monkeypatch.setattr(d, "run_study", run_study)
    result = CliRunner().invoke(app, words[1:])
    assert result.exit_code == 0, result.output
    assert played == [tables.study]


def test_a_limit_no_rule_set_can_meet_is_answered_after_the_search(tmp_path: Path) -> None:
    # Every rule set lasts 100 rounds: none can meet length <= 60. The design says so with
    # the closest rule set, confirms nothing, and the page (and a page redrawn from the
    # folder) says the same instead of failing.
    from design_helpers import null_truth

    study = d.study_from_options(
        "app", 3, free=FREE, goals=["fairness"], limits=["length<=60"], screen_games=600,
        skill_games=200, holdout=2, candidates=2, confirm_games=600,
    )  # fmt: skip
    with pytest.raises(d.DesignError, match=r"None of the \d+ rule sets .* length <= 60 rounds"):
        d.run_study(study, tmp_path / "design", player=stage_double(null_truth))
    findings = json.loads((tmp_path / "design" / "findings.json").read_text())
    assert (
        "the closest" in findings[0]["text"]
        and "is predicted at game length" in (findings[0]["text"])
    )
    stages = pd.read_csv(tmp_path / "design" / "stages.csv")
    assert "confirm" not in set(stages["stage"])
    with pytest.raises(d.DesignError, match="the closest"):
        d.report_study(tmp_path / "design", tmp_path / "again")
