"""Studies: questions answered by playing many games, each with its tables and page.

- `tournament`: every policy in every seat, win rates with intervals and the ranking;
- `compare`: does a rule change matter, paired games until a difference is known to a
  stated precision;
- `ratings`: the skill ladder (openskill ratings with bootstrap intervals);
- `tune`: tuned players (CMA-ES over policy weights) and policy files;
- `skill`: how much each rule set rewards skill, the strategy meta-game, their page;
- `leads`, `unfold`: the win chance from a lead, comebacks, the exact race check, their
  page;
- `duels`: exact play in reduced games (two players, one or two pieces), the luck and
  cost of every move, and the skill pages' players measured against exact play, their
  page;
- `design`: the house-rule designer, which house rules give the game a family wants;
- `whatif`: from a position, who wins.

The studies with a page (`skill`, `unfold`, `duels`, `design`) are packages of the same
stages, each a module of the same name, so that one read of any of them teaches the
others; a new study copies the shape:

- `spec`: what the study asks; `load_study(path)` reads the study file, checked, as a
  frozen study (through `ludosim.studies.study`, which every study shares);
- `plan`: `plan_study(study)`, what the study will play, checked before the first
  game (`design`: the free house rules and the fractional factorial; `skill`: each
  rule set's ladder and sizes; `unfold`: the race checks and rule sets in order);
- `tables`: the study's tables, `write_tables(tables, out)` and
  `read_tables(folder, ...)` as CSV, so a page can be redrawn without playing again;
- `play`: `play_study(study, ...)`, the games played and measured into the tables;
- `findings`: `study_findings(tables)`, what the page states, decided in the page's
  families (`ludosim.report.claims`, `ludosim.report.contrasts`);
- `page`: `study_page(tables, out, title=None)`, the page, rendered by
  `ludosim.report.page`, which owns the HTML, the figures' embedding and the glossary
  (numbers are written by `ludosim.report.wording`); `run_study(study, out, ...)`, all
  of it into a locked output folder (`ludosim.studies.study.run_into_folder`); `skill` and
  `unfold` keep each finished part there as it finishes (`ludosim.studies.parts`), so a
  stopped run resumes where it stopped.

Beside these, a study keeps what is its own under its own names (`design`: `stages`,
`effects`, `regression`, `confirmation`, `search`; `skill`: `equilibrium`, `matches`;
`unfold`: `snapshots`, `comebacks`; the page's `words`).

A sweep's report takes the same steps with the sweep's own names: the sweep file
(`ludosim.sweep.SweepSpec.from_toml`), its cells (`ludosim.sweep.expand`), `run_sweep`,
`ludosim.load`, `ludosim.report.findings.page_findings` and
`ludosim.report.page.make_report`.
"""
