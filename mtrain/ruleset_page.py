"""One rule set as a page of the rule book (`mtrain rules NAME|FILE`): its options, its tile
set's facts, the clauses that apply and the fixtures that speak about it; and the table of
a tile set's facts, which the facts page shows for every set."""

from __future__ import annotations

from collections.abc import Iterable

from mtrain.conformance.fixture import Fixture
from mtrain.spec import facts as F
from mtrain.spec.catalog import catalog, max_pip_of
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.tilesets import highest


def ruleset_page(rs: Ruleset, fixtures: Iterable[Fixture]) -> str:
    """One rule set as a page of the rule book: its options, the clauses that apply, and
    the fixtures that speak about it (`mtrain rules NAME|FILE`)."""
    cat = catalog()
    values = dict(rs.choices)
    closest = cat.describe(values).split(",")[0]
    base = dict(cat.ruleset(closest).choices)
    out = [f"# The rule set {rs.name}", "",
           f"Closest shipped variant: `{closest}`; it differs in "
           + (", ".join(f"`{o}`" for o in cat.options if values[o] != base[o]) or "nothing")
           + ".", "", "## Options", "", "| option | value | what it means | source |",
           "|---|---|---|---|"]
    for name, option in cat.options.items():
        v = values[name]
        known = option.values.get(v)
        if name == "hand_sizes":
            text = ", ".join(f"{n} players: {h}" for n, h in rs.hand_table)
        else:
            text = known.text if known else "played in a way no known value describes"
        source = ", ".join(known.source) if known else "its own"
        mark = " **(differs)**" if v != base[name] else ""
        out.append(f"| {option.title} (`{name}`) | `{v}`{mark} | {text} | {source} |")
    aside = values["engine_procedure"] == "set-aside"
    top = max_pip_of(values)
    out += ["", "## Facts of its tile set", "",
            "Computed exactly from the set and the hand-size table (spec/facts.py); pool and "
            "starters are those of round 1"
            + (", with the engine set aside." if aside else ", every tile dealt."), "",
            *set_facts_table([values["tile_set"]], aside),
            "| players | tiles each | left in the boneyard | chance of no starter |",
            "|---|---|---|---|"]
    pool = F.pool_size(top, aside=aside)
    for n, h in rs.hand_table:
        if n * h > pool:
            continue  # DEAL-8 refuses such a table when it is loaded
        p = F.no_starter_probability(top, h, aside=aside)
        out.append(f"| {n} | {h} | {pool - n * h} | {p} ({float(100 * p):.1f} %) |")
    applying = [c for c in cat.clauses.values() if c.applies(values)]
    out += ["", f"## The clauses that apply ({len(applying)})", ""]
    out += [f"- [{c.id}](rules/{c.id}.md) {c.title}" for c in applying]
    fixtures = list(fixtures)
    speak = [fx for fx in fixtures if any(e.scope.contains(values) for e in fx.expect)]
    out += ["", f"## Fixtures that speak about it ({len(speak)} of {len(fixtures)})", "",
            "Run them with `mtrain conform --rules FILE` (rule sets with a table or a rule of "
            "their own also run every fixture that does not depend on it).", ""]
    by_topic: dict[str, int] = {}
    for fx in speak:
        topic = fx.id.rpartition("-")[0] or fx.id
        by_topic[topic] = by_topic.get(topic, 0) + 1
    out += [f"- {topic}: {n}" for topic, n in sorted(by_topic.items())]
    return "\n".join(out) + "\n"


def set_facts_table(tile_sets: Iterable[str], aside: bool = True) -> list[str]:
    """A Markdown table of the computed facts of each tile set (spec.facts.set_facts)."""
    out = ["| set | numbers | tiles | pips | pips per tile | tiles per number | rounds | "
           "pool | starters |", "|---|---|---|---|---|---|---|---|---|"]
    for name in tile_sets:
        f = F.set_facts(highest(name), aside)
        out.append(f"| `{name}` | 0-{f.max_pip} | {f.tiles} | {f.pips:,} | {f.mean_pips} | "
                   f"{f.tiles_per_number} | {f.rounds} | {f.pool} | {f.starters} |")
    return [*out, ""]
