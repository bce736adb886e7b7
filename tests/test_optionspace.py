"""The z3 analyses of the option space, against values worked out by hand from the YAML.

Expected values come from reading spec/data/options.yaml and clauses.yaml (cited below),
and the model count from a brute-force enumeration of the Cartesian product of option
values with plain Python checks of the `requires` and DEAL-8 rules, never from the code
under test.
"""

from __future__ import annotations

import itertools
import json
import math
import operator
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
import z3

from mtrain.spec.optionspace import checks
from mtrain.spec.optionspace.features import AnalysisError, OptionSpace, SatResult

DATA = Path(__file__).resolve().parents[1] / "spec" / "data"
# (N+1)(N+2)/2 for N = 12, 9, 10, 6, 15, 18, 8, 16, and 7, 11, 13, 14, 17 (options.yaml's
# `every_double`: every other N from 6 to 18)
TILES = {"double-12": 91, "double-9": 55, "double-10": 66, "double-6": 28, "double-15": 136,
         "double-18": 190, "double-8": 45, "double-16": 153, "double-7": 36, "double-11": 78,
         "double-13": 105, "double-14": 120, "double-17": 171}
EVERY_DOUBLE = ("double-7", "double-11", "double-13", "double-14", "double-17")

# Read by hand from options.yaml: the hand-size tables.
TABLES = {
    "pagat": {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10, 9: 8, 10: 8},
    "puremco-d12": {2: 16, 3: 16, 4: 15, 5: 14, 6: 12, 7: 10, 8: 9},
    "puremco-d9": {2: 15, 3: 13, 4: 10},
    "cardinal": {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 11, 8: 11},
    "fundex": {2: 15, 3: 15, 4: 15, 5: 11, 6: 11, 7: 8, 8: 8},
    "ourpastimes-d15": {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, **{n: 11 for n in range(7, 13)}},
    "celko-d6": {2: 9, 3: 8, 4: 6},
    "celko-d9": {2: 9, 3: 9, 4: 9, 5: 7, 6: 7, 7: 7, 8: 6},
    "celko-d15": {**{n: 15 for n in range(2, 7)}, 7: 13, 8: 13, **{n: 11 for n in range(9, 13)}},
    "goodsam": {2: 16, 3: 15, 4: 14, 5: 13, 6: 12, 7: 11, 8: 10},
    "hathaway": {2: 15, 3: 15, 4: 15, 5: 11, 6: 11, 7: 10, 8: 10, 9: 8, 10: 8},
}
D12_TABLES = ("pagat", "puremco-d12", "cardinal", "fundex", "goodsam", "hathaway")
NAMED = ("pagat", "puremco-d12", "puremco-d9", "cardinal", "fundex", "ourpastimes-d15",
         "celko-d6", "celko-d9", "celko-d15", "goodsam", "hathaway")  # yaml order

# Read by hand: SEAT-2, FIRST-9, DEAL-4, DEAL-9 to DEAL-14 are the clauses with `requires`
# (DEAL-4, DEAL-9, DEAL-12, DEAL-13, DEAL-14: a table on its own set; DEAL-10: double-15
# takes one of its two published tables; DEAL-11: double-18 takes none). On a double-9
# set (55 tiles) every table but puremco-d9, celko-d9 and celko-d6 has a 4-player row of
# 56 tiles or more; on a double-6 set (28) every table's 2-player row is 30 or more but
# celko-d9's (18: its 4-player row, 36, is the first too large) and celko-d6's; on a
# double-12 set (91) the double-15 tables' rows for 9 (99) and 8 (104) players do not fit.
# A core keeps the earliest declared literal (DEAL-4, then the DEAL-8 rows in table order,
# then DEAL-9 to DEAL-14).


def _first_row_past(table: str, tiles: int) -> str | None:
    """DEAL-8's first row of `table` (read by hand above) that deals more than `tiles`."""
    return next((f"DEAL-8:{table}:{n}p" for n, h in TABLES[table].items() if n * h > tiles),
                None)


D9_TOO_BIG = ("pagat", "puremco-d12", "cardinal", "fundex", "ourpastimes-d15", "celko-d15",
              "goodsam", "hathaway")
CONTRADICTORY = {
    ("tile_set=double-12", "hand_sizes=puremco-d9"): ("DEAL-4",),
    ("tile_set=double-12", "hand_sizes=ourpastimes-d15"): ("DEAL-8:ourpastimes-d15:9p",),
    ("tile_set=double-12", "hand_sizes=celko-d6"): ("DEAL-12",),
    ("tile_set=double-12", "hand_sizes=celko-d9"): ("DEAL-13",),
    ("tile_set=double-12", "hand_sizes=celko-d15"): ("DEAL-8:celko-d15:8p",),
    **{("tile_set=double-9", f"hand_sizes={t}"): (f"DEAL-8:{t}:4p",) for t in D9_TOO_BIG},
    ("tile_set=double-9", "hand_sizes=celko-d6"): ("DEAL-12",),
    **{("tile_set=double-6", f"hand_sizes={t}"): {"puremco-d9": ("DEAL-4",),
       "celko-d9": ("DEAL-8:celko-d9:4p",)}.get(t, (f"DEAL-8:{t}:2p",))
       for t in NAMED if t != "celko-d6"},
    **{("tile_set=double-15", f"hand_sizes={t}"): ("DEAL-4",) if t == "puremco-d9"
       else ("DEAL-10",) for t in NAMED if t not in ("ourpastimes-d15", "celko-d15")},
    # double-10 (66 tiles) takes no named table (DEAL-11), but a table's first row past 66
    # tiles is declared earlier: pagat 6 x 12, puremco-d12 5 x 14, cardinal 6 x 12,
    # ourpastimes-d15 6 x 12, celko-d15 5 x 15, goodsam 6 x 12, hathaway 7 x 10 (fundex's
    # 6 x 11 = 66 fits with the engine dealt, so DEAL-11 it is; celko-d6, celko-d9 fit)
    **{("tile_set=double-10", f"hand_sizes={t}"): {
        "puremco-d9": ("DEAL-4",), "pagat": ("DEAL-8:pagat:6p",),
        "puremco-d12": ("DEAL-8:puremco-d12:5p",), "cardinal": ("DEAL-8:cardinal:6p",),
        "ourpastimes-d15": ("DEAL-8:ourpastimes-d15:6p",),
        "celko-d15": ("DEAL-8:celko-d15:5p",), "goodsam": ("DEAL-8:goodsam:6p",),
        "hathaway": ("DEAL-8:hathaway:7p",)}.get(t, ("DEAL-11",)) for t in NAMED},
    # double-8 (45 tiles) takes no named table (DEAL-11) either, and here too a table's
    # first row past 45 tiles is declared earlier: 4 x 15 for pagat, cardinal, fundex,
    # ourpastimes-d15, celko-d15 and hathaway, 4 x 14 goodsam, 3 x 16 puremco-d12, 7 x 7
    # celko-d9 (celko-d6's rows fit)
    **{("tile_set=double-8", f"hand_sizes={t}"): {
        "puremco-d9": ("DEAL-4",), "puremco-d12": ("DEAL-8:puremco-d12:3p",),
        "celko-d9": ("DEAL-8:celko-d9:7p",), "celko-d6": ("DEAL-11",)}.get(
            t, (f"DEAL-8:{t}:4p",)) for t in NAMED},
    **{("tile_set=double-18", f"hand_sizes={t}"): {"puremco-d9": ("DEAL-4",),
       "ourpastimes-d15": ("DEAL-9",)}.get(t, ("DEAL-11",)) for t in NAMED},
    # double-16 (153 tiles) as double-18: every named row fits (the largest, 12 x 11 =
    # 132), so DEAL-11 but where DEAL-4 or DEAL-9 is declared before it
    **{("tile_set=double-16", f"hand_sizes={t}"): {"puremco-d9": ("DEAL-4",),
       "ourpastimes-d15": ("DEAL-9",)}.get(t, ("DEAL-11",)) for t in NAMED},
    # the sets of `every_double` take no named table (DEAL-11) either; as on double-8 and
    # double-10, DEAL-4 is declared first, then each table's rows in order (the first past
    # the set's tiles, counted by _first_row_past), then DEAL-9
    **{(f"tile_set={s}", f"hand_sizes={t}"): ("DEAL-4",) if t == "puremco-d9" else (
        _first_row_past(t, TILES[s]) or ("DEAL-9" if t == "ourpastimes-d15" else "DEAL-11"),)
       for s in EVERY_DOUBLE for t in NAMED},
    ("engine_procedure=set-aside", "starting_seat=engine-holder"): ("SEAT-2",),
    ("engine_procedure=set-aside", "starting_seat=after-engine"): ("SEAT-4",),
    # SEAT-6: the heaviest tile in hand starts only with the engine set aside
    **{(f"engine_procedure={e}", "starting_seat=heaviest-in-hand"): ("SEAT-6",)
       for e in ("holder-lays", "holder-lays-and-draws", "everyone-draws",
                 "highest-double-held", "designated-opens")},
    ("first_turn=chain", "mexican_first_turn=starter-only"): ("FIRST-9",),
    ("first_turn=chain-no-double-end", "mexican_first_turn=starter-only"): ("FIRST-9",),
    ("mexican_first_turn=starter-only", "own_train_first=required"): ("FIRST-9",),
    ("mexican_first_turn=own-train-started", "own_train_first=required"): ("FIRST-10",),
}

# By hand: (tile_set, hand_sizes, engine_procedure, starting_seat) has 24 (set, table)
# pairs (double-12 with its 6 tables, double-9 with puremco-d9 and celko-d9, double-6 with
# celko-d6, double-15 with ourpastimes-d15 and celko-d15, and each of the 13 sets with a
# table of the file's own, `custom`; no row of these fills its set exactly, so any
# engine procedure deals it) x 23 (engine, seat) pairs allowed by SEAT-2, SEAT-4 and
# SEAT-6 (any of the 4 starts but the heaviest tile's after holder-lays,
# holder-lays-and-draws, everyone-draws, highest-double-held or designated-opens; the
# rotating one, the highest draw's, SEAT-5, or the heaviest tile's, SEAT-6, after
# set-aside) = 552;
# (first_turn, mexican_first_turn, own_train_first) has 14 of 24 allowed: anyone with any
# of the 4 first turns and either own_train_first (8), starter-only with single or
# chain-anywhere and not-required (FIRST-9: 2), own-train-started with not-required and
# any first turn (FIRST-10: 4);
# the other eleven options are free (doubles 2, follow_up 4, double_order 2,
# uncoverable_double 3, marker_removal 3, draw_rule 2, blocked_round 2, scoring 3,
# blank_values 4, tie_rule 3, match_length 2): 2*4*2*3*3*2*2*3*4*3*2 = 41472 (doubles
# narrows nothing: its clauses' `when` only says which of them apply).
FREE = 2 * 4 * 2 * 3 * 3 * 2 * 2 * 3 * 4 * 3 * 2
HAND_COUNT = 552 * 14 * FREE


@pytest.fixture(scope="module")
def sp() -> OptionSpace:
    return OptionSpace()


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    return checks.run_all(OptionSpace())


def _brute_force() -> tuple[list[str], list[tuple[str, ...]], dict[str, list[str]]]:
    """Every valid rule set, by plain enumeration, read from the data files alone: the
    Cartesian product of the options some constraint mentions (a `requires` clause, on
    either side, or a deal row: the set, the table, the engine procedure), each kept or
    not by the constraints; the options no constraint mentions are returned apart, free,
    since every value of theirs goes with every valid rest."""
    options = yaml.safe_load((DATA / "options.yaml").read_text(encoding="utf-8"))
    clauses = yaml.safe_load((DATA / "clauses.yaml").read_text(encoding="utf-8"))
    required = [c for c in clauses if c.get("requires")]
    mentioned = {"tile_set", "hand_sizes", "engine_procedure"}
    for c in required:
        mentioned |= set(c.get("when") or {}) | set(c["requires"])
    names = [o for o in options if o in mentioned]
    values = {o: [*options[o]["values"], *(["custom"] if o == "hand_sizes" else [])]
              for o in options}
    rule = options["tile_set"]["every_double"]  # each other double-N, N from `from` to `to`
    named = {b["highest"] for b in options["tile_set"]["values"].values()}
    values["tile_set"] += [f"double-{n}" for n in range(rule["from"], rule["to"] + 1)
                           if n not in named]
    free = {o: values[o] for o in options if o not in mentioned}
    pos = {o: i for i, o in enumerate(names)}
    rules = [([(pos[o], set(v)) for o, v in (c.get("when") or {}).items()],
              [(pos[o], set(v)) for o, v in c["requires"].items()])
             for c in required]
    tables = {v: b["table"] for v, b in options["hand_sizes"]["values"].items()}
    assert tables == TABLES
    tables["custom"] = {}  # a file's own table: no row to check here, any requirement met
    i_hand, i_set, i_eng = pos["hand_sizes"], pos["tile_set"], pos["engine_procedure"]
    valid = []
    for rs in itertools.product(*(values[o] for o in names)):
        if any(all(rs[i] in vs for i, vs in when)
               and not all(rs[i] in vs or (i == i_hand and rs[i] == "custom") for i, vs in req)
               for when, req in rules):
            continue
        aside = 1 if rs[i_eng] == "set-aside" else 0
        if all(n * h + aside <= TILES[rs[i_set]] for n, h in tables[rs[i_hand]].items()):
            valid.append(rs)
    return names, valid, free


def _assert_minimal(sp: OptionSpace, result: SatResult) -> None:
    """Dropping any literal of the core leaves something satisfiable."""
    assert not result.sat
    for dropped in result.core:
        rest = [n for n in result.core if n != dropped]
        hard = [sp.eq(*n.split("=", 1)) for n in rest if "=" in n]
        kept = [n for n in rest if "=" not in n]
        assert sp.check(hard, constraints=kept)[0].sat, (result.core, dropped)


# -- encoding --------------------------------------------------------------------------


def test_tracked_constraints_are_the_requires_clauses_and_every_deal_row(
        sp: OptionSpace) -> None:
    rows = {f"DEAL-8:{t}:{n}p" for t, table in TABLES.items() for n in table}
    assert {c.name for c in sp.constraints} == {"DEAL-4", "DEAL-9", "DEAL-10", "DEAL-11",
                                                "DEAL-12", "DEAL-13", "DEAL-14",
                                                "SEAT-2", "SEAT-4", "SEAT-6",
                                                "FIRST-9", "FIRST-10"} | rows
    assert sp.tile_counts == TILES
    assert sp.options["hand_sizes"][-1] == "custom"


# -- satisfiability --------------------------------------------------------------------


def test_every_shipped_variant_is_satisfiable(sp: OptionSpace) -> None:
    results = sp.shipped_variants()
    assert {r.name for r in results} == {"pagat", "puremco", "puremco-d9"}
    assert all(r.sat for r in results)


def test_seat2_engine_holder_needs_holder_lays(sp: OptionSpace) -> None:
    res = sp.satisfiable({"starting_seat": "engine-holder", "engine_procedure": "set-aside"})
    assert not res.sat
    assert res.clauses == ("SEAT-2",)
    assert set(res.core) == {"SEAT-2", "starting_seat=engine-holder",
                             "engine_procedure=set-aside"}
    _assert_minimal(sp, res)
    assert sp.satisfiable({"starting_seat": "engine-holder",
                           "engine_procedure": "holder-lays"}).sat


def test_first9_starter_only_needs_single_tile_start(sp: OptionSpace) -> None:
    res = sp.satisfiable({"mexican_first_turn": "starter-only", "first_turn": "chain"})
    assert not res.sat and res.clauses == ("FIRST-9",)
    _assert_minimal(sp, res)
    assert sp.satisfiable({"mexican_first_turn": "starter-only", "first_turn": "single"}).sat


def test_puremco_d9_table_needs_double_9(sp: OptionSpace) -> None:
    # DEAL-4 requires double-9; its rows (30, 39, 40 tiles) fit either set (DEAL-8 holds).
    res = sp.satisfiable({"hand_sizes": "puremco-d9", "tile_set": "double-12"})
    assert not res.sat and res.clauses == ("DEAL-4",)
    assert sp.satisfiable({"hand_sizes": "puremco-d9", "tile_set": "double-9",
                           "engine_procedure": "set-aside"}).sat


@pytest.mark.parametrize("table", D12_TABLES)
def test_double_12_tables_cannot_be_dealt_from_double_9(sp: OptionSpace, table: str) -> None:
    res = sp.satisfiable({"hand_sizes": table, "tile_set": "double-9",
                          "engine_procedure": "holder-lays"})
    assert not res.sat
    # 4 x 15 = 60 (goodsam 4 x 14 = 56) > 55, the first bad row
    assert res.clauses == (f"DEAL-8:{table}:4p",)
    _assert_minimal(sp, res)


@pytest.mark.parametrize(("table", "tile_set", "clause"), [
    ("celko-d6", "double-6", "DEAL-12"), ("celko-d9", "double-9", "DEAL-13")])
def test_celko_small_tables_need_their_own_set(sp: OptionSpace, table: str, tile_set: str,
                                               clause: str) -> None:
    # every row fits a double-12 set (at most 8 x 6 = 48 tiles): only the clause refuses
    res = sp.satisfiable({"hand_sizes": table, "tile_set": "double-12"})
    assert not res.sat and res.clauses == (clause,)
    assert sp.satisfiable({"hand_sizes": table, "tile_set": tile_set,
                           "engine_procedure": "set-aside"}).sat


def test_double_6_takes_celkos_table_or_a_files_own(sp: OptionSpace) -> None:
    # DEAL-8 alone: on a double-6 set the d12 tables are refused by their 2-player rows
    # (2 x 16 = 32 > 28); celko-d6 deals (4 x 6 + 1 = 25 of 28), and so does `custom`
    assert sp.satisfiable({"tile_set": "double-6", "hand_sizes": "celko-d6",
                           "engine_procedure": "set-aside"}).sat
    assert sp.satisfiable({"tile_set": "double-6", "hand_sizes": "custom"}).sat
    res = sp.satisfiable({"tile_set": "double-6", "hand_sizes": "goodsam"})
    assert not res.sat and res.clauses == ("DEAL-8:goodsam:2p",)
    _assert_minimal(sp, res)


def test_a_full_rule_set_core_names_the_clashing_values(sp: OptionSpace) -> None:
    values = dict(sp.catalog.ruleset("pagat"))
    values["engine_procedure"] = "set-aside"
    res = sp.satisfiable(values)
    assert set(res.core) == {"SEAT-2", "starting_seat=engine-holder",
                             "engine_procedure=set-aside"}


# -- overlay combinations --------------------------------------------------------------


@pytest.mark.slow
def test_overlay_combinations_agree_with_the_catalog(sp: OptionSpace) -> None:
    combos = {c.name: c for c in sp.overlay_combinations()}
    n = len(sp.catalog.overlays)
    assert len(combos) == 3 * (n + n * (n - 1) // 2)
    assert [name for name, c in combos.items() if not c.agree] == []
    first9 = combos["pagat+starter-opens-mexican"]
    assert not first9.catalog_ok and first9.catalog_clauses == ("FIRST-9",)
    assert set(first9.z3.core) == {"FIRST-9", "variant:pagat", "overlay:starter-opens-mexican"}
    deal = combos["puremco-d9+cardinal-hands"]
    assert deal.catalog_kind == "clause" and deal.z3.clauses == ("DEAL-8:cardinal:4p",)
    clash = combos["pagat+blanks-25+double-blank-50"]
    assert clash.catalog_kind == "conflict"
    assert clash.z3.core == ("overlay:blanks-25", "overlay:double-blank-50")
    scope = combos["puremco+marker-anyone"]  # applies_to pagat: not an option-space matter
    assert scope.catalog_kind == "applies-to" and scope.z3.sat and not scope.comparable
    assert combos["pagat+engine-aside"].z3.sat  # it moves the seat off engine-holder too
    for c in combos.values():
        if c.catalog_ok:
            assert c.z3.sat, c.name


# -- the feature-model analyses --------------------------------------------------------


@pytest.mark.slow
def test_contradictory_pairs(sp: OptionSpace) -> None:
    found = {(c.a, c.b): c.core for c in sp.contradictory_pairs()}
    assert found == CONTRADICTORY


def test_no_dead_values_and_an_empty_backbone(sp: OptionSpace) -> None:
    report = sp.values()
    assert report.dead == () and report.backbone == ()


def test_no_false_optional_or_dead_clauses(sp: OptionSpace) -> None:
    usage = sp.clause_usage()
    assert usage.false_optional == () and usage.dead == ()
    assert "SEAT-2" in usage.checked and "SET-1" not in usage.checked  # SET-1 has no `when`


def test_atomic_sets(sp: OptionSpace) -> None:
    # puremco-d9 only on double-9 (DEAL-4), but double-9 also with a table of the file's
    # own; likewise ourpastimes-d15 and double-15, celko-d6 and double-6: nothing always
    # goes together.
    assert sp.atomic_sets() == ()


@pytest.mark.slow
def test_redundant_constraints(sp: OptionSpace) -> None:
    report = sp.redundant_constraints()
    by_name = {r.name: r for r in report.redundant}
    # The rows that fit 28 tiles (double-6) with the engine aside are tautologies: every
    # row of celko-d6 (19, 25, 25) and celko-d9's 2- and 3-player rows (19, 28).
    tautologies = {"DEAL-8:celko-d6:2p", "DEAL-8:celko-d6:3p", "DEAL-8:celko-d6:4p",
                   "DEAL-8:celko-d9:2p", "DEAL-8:celko-d9:3p"}
    assert {n for n, r in by_name.items() if r.tautology} == tautologies
    # Every other row says "not on these sets", which a sibling row of the same table (or
    # DEAL-4, DEAL-13) says as well; DEAL-9 follows from the 9-player row (not
    # double-6, 9 or 12) and DEAL-11 (not double-18), DEAL-14 likewise from celko-d15's
    # 8-player row (8 x 13 = 104 > 91) and DEAL-11.
    rows = {f"DEAL-8:{t}:{n}p" for t, table in TABLES.items() for n in table}
    assert set(by_name) == rows | {"DEAL-9", "DEAL-14"}
    # pagat's 10-player row (80 tiles) and its 8-player row (80) rule out the same sets,
    # double-6 to double-11 (78 tiles); its 6-player row (72) fits double-11, and its
    # 4-player row (60) double-10
    assert by_name["DEAL-8:pagat:10p"].implied_by == ("DEAL-8:pagat:8p",)
    assert by_name["DEAL-8:fundex:4p"].implied_by == ("DEAL-8:fundex:6p",)
    assert by_name["DEAL-8:puremco-d9:2p"].implied_by == ("DEAL-4",)
    assert by_name["DEAL-9"].implied_by == ("DEAL-8:ourpastimes-d15:9p", "DEAL-11")
    assert by_name["DEAL-14"].implied_by == ("DEAL-8:celko-d15:8p", "DEAL-11")
    # DEAL-12 and DEAL-13 stay: celko-d6's and celko-d9's rows fit a double-12 set; each
    # table's first row too large for double-9 (too large for double-6 as well; for
    # celko-d15 the 8-player row, too large for double-12 too) stays.
    assert report.basis == ("DEAL-4", "DEAL-8:pagat:4p", "DEAL-8:puremco-d12:4p",
                            "DEAL-8:cardinal:4p", "DEAL-8:fundex:4p",
                            "DEAL-8:ourpastimes-d15:9p", "DEAL-8:celko-d15:8p",
                            "DEAL-8:goodsam:4p", "DEAL-8:hathaway:4p", "DEAL-10", "DEAL-11",
                            "DEAL-12", "DEAL-13", "SEAT-2", "SEAT-4", "SEAT-6", "FIRST-9",
                            "FIRST-10")


@pytest.mark.slow
def test_model_count_matches_brute_force(sp: OptionSpace) -> None:
    names, valid, free = _brute_force()
    assert math.prod(len(vs) for vs in free.values()) == FREE
    assert len(valid) * FREE == HAND_COUNT
    assert sp.count_models().total == HAND_COUNT
    # The same enumeration also confirms dead values, backbone and the atomic set.
    seen = Counter(itertools.chain.from_iterable(
        zip(names, rs, strict=True) for rs in valid))
    every = [(o, v) for o, vs in sp.options.items() for v in vs if o not in free]
    assert all(0 < seen[ov] < len(valid) for ov in every)  # none dead, none forced
    assert all(len(vs) >= 2 for vs in free.values())  # free: with every rest, none forced
    i_set, i_hand = names.index("tile_set"), names.index("hand_sizes")
    on_d9 = Counter(rs[i_hand] for rs in valid if rs[i_set] == "double-9")
    assert set(on_d9) == {"puremco-d9", "celko-d9", "custom"}  # so none is an atomic set
    on_d6 = Counter(rs[i_hand] for rs in valid if rs[i_set] == "double-6")
    assert set(on_d6) == {"celko-d6", "custom"}
    linked = [names.index(o) for o in ("tile_set", "hand_sizes", "engine_procedure",
                                       "starting_seat", "first_turn", "mexican_first_turn",
                                       "own_train_first")]
    projections = {operator.itemgetter(*linked)(rs) for rs in valid}
    pairs = {(f"{names[i]}={p[a]}", f"{names[j]}={p[b]}") for p in projections
             for (a, i), (b, j) in itertools.combinations(enumerate(linked), 2)}
    for a, b in CONTRADICTORY:
        assert (a, b) not in pairs
    assert len(pairs) == sum(len(sp.options[names[i]]) * len(sp.options[names[j]])
                             for i, j in itertools.combinations(linked, 2)) - len(CONTRADICTORY)


def test_deal_feasibility(sp: OptionSpace) -> None:
    rows = sp.deal_feasibility()
    bad = {(r.table, r.tile_set, r.engine_procedure, r.players) for r in rows if not r.dealable}
    assert not any(ts == "double-12" and t in D12_TABLES for t, ts, _, _ in bad)
    assert not any(ts in ("double-15", "double-18") and t != "ourpastimes-d15"
                   for t, ts, _, _ in bad)
    assert ("pagat", "double-9", "holder-lays", 4) in bad  # 4 x 15 = 60 > 55
    assert {n for t, ts, e, n in bad if t == "pagat" and ts == "double-9"
            and e == "holder-lays"} == set(range(4, 11))
    # puremco-d9 (30, 39, 40 tiles) is too large only for double-6 (28) and double-7 (36)
    assert {ts for t, ts, _, _ in bad if t == "puremco-d9"} == {"double-6", "double-7"}
    # fundex 5 x 11 = 55: fits exactly, unless the engine is set aside (a holder who
    # draws a replacement finds the boneyard empty and draws none: ENG-5).
    assert ("fundex", "double-9", "set-aside", 5) in bad
    assert ("fundex", "double-9", "holder-lays", 5) not in bad
    assert ("fundex", "double-9", "holder-lays-and-draws", 5) not in bad
    expected = {(t, ts, e, n) for t, table in TABLES.items() for ts, size in TILES.items()
                for e, aside in (("holder-lays", 0), ("set-aside", 1),
                                 ("holder-lays-and-draws", 0), ("everyone-draws", 0),
                                 ("highest-double-held", 0), ("designated-opens", 0))
                for n, h in table.items() if n * h + aside > size}
    assert bad == expected


# -- machinery -------------------------------------------------------------------------


@pytest.mark.slow  # a space of its own, every analysis again, ~3 CPU s
def test_backbone_dead_values_and_clause_usage_under_an_extra_constraint() -> None:
    sp = OptionSpace()
    sp.add_constraint("TEST-1", sp.eq("tile_set", "double-12"))
    report = sp.values()
    assert [(f.text, f.core) for f in report.backbone] == [("tile_set=double-12", ("TEST-1",))]
    assert [(f.text, f.core) for f in report.dead] == [
        *((f"tile_set={s}", ("TEST-1",)) for s in ("double-9", "double-6", "double-10",
                                                   "double-15", "double-18", "double-8",
                                                   "double-16", *EVERY_DOUBLE)),
        ("hand_sizes=puremco-d9", ("DEAL-4", "TEST-1")),
        ("hand_sizes=ourpastimes-d15", ("DEAL-8:ourpastimes-d15:9p", "TEST-1")),
        ("hand_sizes=celko-d6", ("DEAL-12", "TEST-1")),
        ("hand_sizes=celko-d9", ("DEAL-13", "TEST-1")),
        ("hand_sizes=celko-d15", ("DEAL-8:celko-d15:8p", "TEST-1"))]
    usage = sp.clause_usage()
    assert [f.clause for f in usage.false_optional] == ["SET-2"]
    assert [f.clause for f in usage.dead] == ["SET-3", "SET-4", "SET-5", "SET-6", "SET-7",
                                              "SET-8", "SET-9", "DEAL-4",
                                              "DEAL-9", "DEAL-10", "DEAL-11", "DEAL-12",
                                              "DEAL-13", "DEAL-14"]
    # double-12 with its 6 tables or a table of its own, x 23 (engine, seat) pairs
    assert sp.count_models().total == 161 * 14 * FREE


def test_an_undecided_query_is_an_error() -> None:
    sp = OptionSpace(rlimit=1)
    with pytest.raises(AnalysisError):
        sp.satisfiable({"tile_set": "double-9"})


@pytest.mark.slow
def test_run_all_report(report: dict[str, Any]) -> None:
    json.dumps(report)
    names = [c["name"] for c in report["checks"]]
    assert names == ["shipped-variants", "overlay-combinations", "values", "value-meaning",
                     "contradictory-pairs", "clause-usage", "sources", "atomic-sets",
                     "redundant-constraints", "model-count", "deal-feasibility"]
    assert all(c["status"] in ("pass", "info") for c in report["checks"]), report["checks"]
    for check in report["checks"]:
        assert set(check) == {"name", "status", "seconds", "findings"}
        for finding in check["findings"]:
            assert set(finding) == {"message", "clauses"}
    summary = report["summary"]
    assert summary["model_count"] == HAND_COUNT
    assert summary["dead_values"] == [] and summary["backbone"] == []
    assert summary["atomic_sets"] == []
    # built on a second OptionSpace: the cores come out the same (deterministic, canonical)
    assert {(a, b): tuple(core) for a, b, core in summary["contradictory_pairs"]} == CONTRADICTORY
    assert summary["overlay_combinations"]["z3_singles_disagree"] == []
    # every subset of the 42 overlays (spec/data/overlays/) on each of the 3 shipped variants
    assert summary["overlay_combinations"]["subsets"] == 3 * 2 ** 42
    assert report["cpu_seconds"] > 0  # reported; its budget is a benchmark's, not a test's


@pytest.mark.slow
def test_run_all_runs_a_selection_as_it_runs_among_the_rest(report: dict[str, Any]) -> None:
    """`only`: those checks alone (what tests/test_check_faults.py runs), each with the
    findings it has in the whole run; one that reads the dead values has them found."""
    assert [c["name"] for c in report["checks"]] == list(checks.CHECKS)
    part = checks.run_all(OptionSpace(), only=["contradictory-pairs"])
    assert part["checks"] == [{**c, "seconds": part["checks"][0]["seconds"]}
                              for c in report["checks"] if c["name"] == "contradictory-pairs"]
    assert "dead_values" in part["summary"]  # `values` ran first, unreported
    with pytest.raises(ValueError, match="no option-space check nope"):
        checks.run_all(OptionSpace(), only=["nope"])


@pytest.mark.slow
def test_run_all_fails_when_an_analysis_errors() -> None:
    report = checks.run_all(OptionSpace(rlimit=1))
    # deal-feasibility evaluates without solving; value-meaning and sources ask no z3
    no_query = {"deal-feasibility", "value-meaning", "sources"}
    assert {c["status"] for c in report["checks"] if c["name"] not in no_query} == {"fail"}



def test_group_literals_do_not_leak_between_queries() -> None:
    """`variant:pagat` means different values in different combinations."""
    fresh = OptionSpace()
    assert fresh.combination("pagat", ("blanks-25",)).z3.sat
    assert fresh.combination("pagat", ("engine-aside",)).z3.sat
    assert fresh.combination("pagat", ("single-tile-start", "starter-opens-mexican")).z3.sat


def test_tautologies_are_the_rows_that_always_fit(sp: OptionSpace) -> None:
    # a row always fits when it fits the smallest set, 28 tiles, even with the engine aside:
    # celko-d6's three rows (9, 8, 6 tiles: 19, 25, 25) and celko-d9's first two (19, 28)
    assert sp.tautologies() == {f"DEAL-8:{t}:{n}p" for t, table in TABLES.items()
                                for n, h in table.items() if n * h + 1 <= 28} == {
        "DEAL-8:celko-d6:2p", "DEAL-8:celko-d6:3p", "DEAL-8:celko-d6:4p",
        "DEAL-8:celko-d9:2p", "DEAL-8:celko-d9:3p"}


def test_an_impossible_extra_constraint_empties_the_space() -> None:
    sp = OptionSpace()
    sp.add_constraint("TEST-2", z3.BoolVal(False))
    assert sp.count_models().total == 0
    assert not sp.satisfiable({}).sat and sp.satisfiable({}).core == ("TEST-2",)


def test_a_selection_of_checks_runs_those_alone_and_the_shipped_sources_pass(
        sp: OptionSpace) -> None:
    """The fast loop's run of checks.run_all (the whole report: test_run_all_report,
    slow): `sources` alone, on the shipped spec, passes with its one fact; a name that
    is no check is refused."""
    part = checks.run_all(sp, only=["sources"])
    assert [(c["name"], c["status"]) for c in part["checks"]] == [("sources", "pass")]
    assert len(part["checks"][0]["findings"]) == 1
    with pytest.raises(ValueError, match="no option-space check nope"):
        checks.run_all(sp, only=["nope"])
