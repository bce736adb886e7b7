"""The specification loaded: options, clauses, variants and overlays, and how they compose.

`catalog()` reads spec/data once. `Catalog.ruleset("pagat+blanks-25")` composes a base
variant with overlays (and explicit overrides) into a frozen Ruleset, refusing with a
clear message: an unknown name, an overlay that does not apply to the base, two overlays
that disagree, a clause whose `requires` fails (SEAT-2, FIRST-9, ...), or a hand-size
table that cannot be dealt from its set (DEAL-8). Errors in files carry file and line.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mtrain.spec import tiles, tilesets
from mtrain.spec.catalog_entries import (
    MALFORMED,
    Clause,
    VariantFile,
    read_clauses,
    read_options,
    read_set_aside,
    read_shaped,
    read_sources,
    read_variant_file,
)
from mtrain.spec.data_folder import (
    DATA_ENV,
    check_data_dir,
    data_dir,
    data_entries,
    data_label,
    data_text,
    load_data,
    shipped_data,
)
from mtrain.spec.errors import shown, written_otherwise
from mtrain.spec.rules_file_shape import shape_errors
from mtrain.spec.ruleset import CUSTOM, OTHER, Ruleset
from mtrain.spec.yamlload import Document, SpecError, SpecErrors, load
from mtrain.spec.yamlschema import schema

Setters = dict[str, tuple[Document | None, str]]
"""Which file (or override) set each option: errors point at its line."""


class ConflictingValues(SpecError):
    """A file's values that a clause's `requires` (or DEAL-8) refuses together: the file
    is read and names known values; the rules it writes contradict each other (a finding
    of `mtrain check --rules`, not a file it cannot read)."""


class RulesetError(ValueError):
    """A rule set that cannot be composed (names, not files, are at fault)."""


TABLE_HINT = " (or a table of one's own, players: tiles, as `hand_sizes: {2: 15, 3: 13}`)"
"""What an unknown hand_sizes value's message adds: a table is given, not named."""


class Catalog:
    """Options, clauses, variants and overlays, cross-checked at load time."""

    def __init__(self, folder: Any = None) -> None:
        self.data_dir = folder = data_dir() if folder is None else folder
        check_data_dir(folder)
        self.sources = read_shaped(load_data(folder, "sources.yaml"), read_sources)
        self.options = read_shaped(load_data(folder, "options.yaml"), read_options)
        self.clauses = read_shaped(load_data(folder, "clauses.yaml"), read_clauses, self.options)
        self.set_aside = read_shaped(load_data(folder, "set-aside.yaml"), read_set_aside)
        self.variants: dict[str, VariantFile] = {}
        self.overlays: dict[str, VariantFile] = {}
        for kind, store in (("variants", self.variants), ("overlays", self.overlays)):
            for entry in data_entries(folder, kind):
                if entry.name.endswith(".yaml"):
                    vf = read_variant_file(load_data(folder, kind, entry.name))
                    other = store.get(vf.name)
                    if other is not None:
                        raise vf.doc.error(("name",), f"name {vf.name!r} is taken by "
                                           f"{other.doc.path} already")
                    store[vf.name] = vf
        if not self.variants:
            raise SpecError(f"{data_label(folder)}/variants", None,
                            "no variant (*.yaml) in this folder")
        # Variants that stand alone come first, those built on another after them.
        self.variants = dict(sorted(self.variants.items(), key=lambda kv: kv[1].base is not None))
        errors: list[SpecError] = []
        for vf in [*self.variants.values(), *self.overlays.values()]:
            errors += self._check_names(vf)
        if errors:
            raise SpecErrors(errors)
        self._constrained = [c for c in self.clauses.values() if c.requires]
        self._composed: dict[tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]],
                             Ruleset] = {}
        """Rule sets composed from a shipped variant (ruleset): read from the data only,
        which does not change once read, so each is composed once (the docs, the scope
        check and identify compose the same few thousands of times)."""
        self._variant_values: dict[str, dict[str, str]] = {}
        self._examples: dict[str, Ruleset] | None = None
        self._reading_examples = False
        self.added_examples: dict[str, str] = {}
        """Examples taken in from the rule-set files fixtures name (add_example): name ->
        path."""
        for name, vf in self.variants.items():  # every shipped variant must compose cleanly
            try:
                self._variant_values[name] = dict(self.ruleset(name).choices)
            except RulesetError as e:  # an overlay that does not apply, or two that clash
                raise vf.doc.error(("overlays",), str(e)) from None
            except MALFORMED as e:
                raise vf.doc.error((), f"cannot be composed ({type(e).__name__}: {e})"
                                   ) from None

    @property
    def examples(self) -> dict[str, Ruleset]:
        """The rule-set files of spec/data/rulesets/, by name: rule sets with a hand table
        of their own (DEAL-10, DEAL-11), which fixtures name as they name variants. They
        are the tables of one's own that the scope check plays (spec/scope.py, `Space`)."""
        if self._examples is None:
            found: dict[str, Ruleset] = {}
            for entry in data_entries(self.data_dir, "rulesets", required=False):
                if not entry.name.endswith(".yaml"):
                    continue
                shown, text = data_text(self.data_dir, "rulesets", entry.name)
                self._reading_examples = True
                try:
                    rs = self.rules_file(shown, text)
                finally:
                    self._reading_examples = False
                if rs.name in found or rs.name in self.variants or rs.name in self.overlays:
                    raise SpecError(shown, None, f"rule set name {rs.name!r} is taken already")
                if not rs.custom_table:
                    raise SpecError(shown, None, f"{rs.name} has a named hand table "
                                    f"({rs['hand_sizes']}); an example gives one of its own")
                found[rs.name] = rs
            self._examples = found
        return self._examples

    def add_example(self, path: str | Path) -> Ruleset:
        """A rule-set file a fixture names (`rules:`), taken in as an example: fixtures name
        its rule set in `variants` and the scope check plays its table (`custom:NAME`),
        as for the files of spec/data/rulesets/. The same file met again is the same
        example; another file under a name already taken is refused."""
        rs = self.rules_file(path)
        known = self.examples.get(rs.name)
        if known is not None:
            if dict(known.choices) == dict(rs.choices) and known.hand_table == rs.hand_table:
                return known
            raise RulesetError(f"{path}: rule set name {rs.name!r} is taken by another "
                               "rule set with other rules; give the file a name of its own")
        if rs.name in self.variants or rs.name in self.overlays:
            raise RulesetError(f"{path}: rule set name {rs.name!r} is a variant's or an "
                               "overlay's")
        if not rs.custom_table:
            raise RulesetError(f"{path}: {rs.name} plays a named hand table "
                               f"({rs['hand_sizes']}); a fixture names such rules by `when`, "
                               "not by a rule-set file")
        if rs.unknown:
            raise RulesetError(f"{path}: {rs.name} plays {', '.join(rs.unknown)} `other`: a "
                               "fixture's rule set must be one the reference can play")
        self.examples[rs.name] = rs
        self.added_examples[rs.name] = str(path)
        return rs

    def forget_added_examples(self) -> None:
        """Back to the shipped examples (for a process that loads one corpus after
        another, as the tests do)."""
        for name in self.added_examples:
            self.examples.pop(name, None)
        self.added_examples.clear()

    # -- composition ------------------------------------------------------------------

    def ruleset(self, spec: str | Path, overlays: Sequence[str] = (),
                overrides: Mapping[str, str] | None = None) -> Ruleset:
        """Compose "base+overlay+..." (or a variant file path) with more overlays and overrides."""
        text = str(spec)
        key = (text, tuple(overlays), tuple(sorted((overrides or {}).items())))
        known = self._composed.get(key)
        if known is not None:
            return known
        named = text.split("+")[0] in self.variants or text in self.examples
        if text.endswith((".yaml", ".yml")) or "/" in text or (
                not named and os.path.lexists(text)):  # a file, whatever its name
            rs = self.rules_file(text)
            if not overlays and not overrides:
                return rs
            base_values = dict(rs.choices)
            inherited: Setters = {o: (None, rs.name) for o in rs}
            values, inherited = self._overlay(base_values, inherited, [rs.name], overlays)
            for option, value in (overrides or {}).items():
                self._check_value(option, value)
                values[option] = value
            return self._finish("+".join([rs.name, *overlays]), values, inherited,
                                tuple(overlays), rs.hand_table)
        else:
            base_name, *extra = text.split("+")
            if base_name not in self.variants and base_name in self.examples:
                if extra or overlays or overrides:  # a fixture's own (`rules:`) or shipped
                    where = self.added_examples.get(base_name, "spec/data/rulesets/")
                    raise RulesetError(f"{base_name} is a rule-set file ({where}): it takes "
                                       "no overlays")
                return self.examples[base_name]
            if not base_name.strip() and extra:  # `+pagat`: "unknown variant ''" misled
                raise RulesetError(f"no variant before the `+` in {shown(text)}: a rule set "
                                   "is written base+overlay+... (pagat+blanks-25)")
            if base_name not in self.variants:  # the rule-set files are named as well
                files = (f" (and the rule-set files {', '.join(sorted(self.examples))})"
                         if self.examples else "")
                known_names = [*self.variants, *self.examples]
                raise RulesetError(f"unknown variant {shown(base_name)}"
                                   f"{written_otherwise(base_name, known_names)}; known: "
                                   f"{', '.join(self.variants)}{files}"
                                   f"{tilesets.set_not_a_rule_set(base_name)}")
            head = self.variants[base_name]
        values, setters, lineage = self._resolve(head, ())
        all_overlays = [*extra, *overlays]
        values, setters = self._overlay(values, setters, lineage, all_overlays)
        for option, value in (overrides or {}).items():
            self._check_value(option, value)
            values[option] = value
            setters[option] = (None, f"override {option}={value}")
        name = "+".join([text if head.name == text else head.name, *all_overlays])
        rs = self._finish(name, values, setters, tuple(all_overlays))
        self._composed[key] = rs  # a variant's composition (a file's may change on disk)
        return rs

    def _resolve(self, vf: VariantFile, seen: tuple[str, ...]
                 ) -> tuple[dict[str, str], Setters, list[str]]:
        if vf.name in seen:
            raise vf.doc.error(("base",), f"variant {vf.name!r} is its own base "
                               f"({' -> '.join([*seen, vf.name])})")
        if vf.base is None:
            missing = [o for o in self.options if o not in vf.options]
            if missing:
                raise vf.doc.error(("options",), "a variant without a base must set every "
                                   f"option; missing: {', '.join(missing)}")
            values = dict(vf.options)
            setters: Setters = {o: (vf.doc, vf.name) for o in vf.options}
            return values, setters, [vf.name]
        if vf.base not in self.variants:
            raise vf.doc.error(("base",), f"unknown base variant {shown(vf.base)}; known: "
                               f"{', '.join(self.variants)}")
        values, setters, lineage = self._resolve(self.variants[vf.base], (*seen, vf.name))
        values, setters = self._overlay(values, setters, lineage, vf.overlays)
        for option, value in vf.options.items():
            values[option] = value
            setters[option] = (vf.doc, vf.name)
        return values, setters, [*lineage, vf.name]

    def _overlay(self, values: dict[str, str], setters: Setters,
                 lineage: list[str], names: Sequence[str]
                 ) -> tuple[dict[str, str], Setters]:
        values, setters = dict(values), dict(setters)
        by_overlay: dict[str, str] = {}
        for k, name in enumerate(names):
            if name in names[:k]:  # as a file's `overlays` (uniqueItems): `+x+x` is a slip
                raise RulesetError(f"overlay {name!r} is named twice: an overlay applies once")
            if not name:
                raise RulesetError("an overlay with no name: a `+` too many?")
            if name not in self.overlays and name in self.variants:
                raise RulesetError(f"{name!r} is a variant, not an overlay: a rule set has one "
                                   "base, written first (base+overlay+...)")
            if name not in self.overlays:
                raise RulesetError(f"unknown overlay {shown(name)}"
                                   f"{written_otherwise(name, self.overlays)}; known: "
                                   f"{', '.join(self.overlays)}{tilesets.set_not_a_rule_set(name)}")
            ov = self.overlays[name]
            if ov.applies_to is not None and not set(ov.applies_to) & set(lineage):
                raise RulesetError(f"overlay {name!r} applies only to "
                                   f"{', '.join(ov.applies_to)}, not to {lineage[-1]!r}")
            for option, value in ov.options.items():
                other = by_overlay.get(option)
                if other is not None and values[option] != value:
                    raise RulesetError(f"overlays {other!r} and {name!r} conflict: they set "
                                       f"{option} to {values[option]!r} and {value!r}")
                by_overlay[option] = name
                values[option] = value
                setters[option] = (ov.doc, name)
        return values, setters

    def _finish(self, name: str, values: dict[str, str],
                setters: Setters, overlays: tuple[str, ...],
                table: tuple[tuple[int, int], ...] | None = None) -> Ruleset:
        if table is None:
            table = self.options["hand_sizes"].values[values["hand_sizes"]].table
        found = self.conflicts(values, table)
        if found:
            involved, message = found[0]
            # Blame an override first, then an option a file writes on a line of its own.
            docs = {o: setters[o][0] for o in involved if o in setters}
            overridden = [o for o, doc in docs.items() if doc is None]
            written = [o for o, doc in docs.items()
                       if doc is not None and ("options", o) in doc.lines]
            culprit = (overridden or written or list(involved))[0]
            raise self._fail(setters[culprit], culprit, f"{name}: {message}")
        ordered = tuple((o, values[o]) for o in self.options)
        return Ruleset(name=name, choices=ordered, hand_table=table, overlays=overlays)

    DEAL8_OPTIONS = ("hand_sizes", "tile_set", "engine_procedure")
    """The options DEAL-8 (every row of the hand table can be dealt from the set) reads, in
    the order a fault is blamed: the hand table, then the set."""

    @property
    def constrained(self) -> list[Clause]:
        """The clauses with a `requires`: with DEAL-8, the rules of the option space."""
        return self._constrained

    def conflicts(self, values: Mapping[str, str],
                  table: tuple[tuple[int, int], ...] | None = None
                  ) -> list[tuple[tuple[str, ...], str]]:
        """(the options involved, message) for each rule of the option space that `values`
        breaks.

        `values` may be partial: a constraint is judged once every option it names has a
        value. The rules: each clause's `requires` wherever the clause applies, and DEAL-8
        (every row of the hand table can be dealt from the set). A value `other` (played in
        a way no known value describes) satisfies no `when` and is not judged by `requires`.
        """
        out: list[tuple[tuple[str, ...], str]] = []
        for clause in self._constrained:
            if not _breaks(clause, values):
                continue
            need = "; ".join(f"{o} in {sorted(v)}" if v else f"no named {o} value"
                             for o, v in clause.requires.items())
            involved = (*clause.when, *(o for o in clause.requires if o not in clause.when))
            message = (f"{clause.id} ({clause.title}) applies but requires {need}; "
                       "the rule set has "
                       + ", ".join(f"{o}={values[o]}" for o in clause.requires))
            if "hand_sizes" in clause.requires and "tile_set" in clause.when:
                named = sorted(clause.requires["hand_sizes"])
                message += (f"; a {values['tile_set']} rule set needs "
                            + (f"hand_sizes {' or '.join(named)}, or " if named else "")
                            + "a hand-size table of its own in its rule-set file "
                            "(options: hand_sizes: {players: tiles, ...})")
            out.append((involved, message))
        bad = self._undealable(values, table)
        if bad:
            size = tiles.set_size(max_pip_of(values))
            aside = values["engine_procedure"] == "set-aside"
            rows = ", ".join(f"{n} players x {h} = {n * h}" for n, h in bad)
            out.append((self.DEAL8_OPTIONS,
                        f"hand-size table {values['hand_sizes']!r} cannot be "
                        f"dealt from a {values['tile_set']} set of {size} tiles"
                        f"{' with the engine set aside' if aside else ''}: {rows} [DEAL-8]"))
        return out

    def consistent(self, values: Mapping[str, str], table: tuple[tuple[int, int], ...] | None,
                   clauses: Sequence[Clause], deal8: bool) -> bool:
        """Whether `values` breaks none of `clauses` (of `constrained`) nor, with `deal8`,
        DEAL-8: `conflicts` judged in part, without the messages. `Space.complete` judges
        each rule once, when the last option it names is given a value."""
        if any(_breaks(clause, values) for clause in clauses):
            return False
        return not (deal8 and self._undealable(values, table))

    def _undealable(self, values: Mapping[str, str],
                    table: tuple[tuple[int, int], ...] | None) -> list[tuple[int, int]]:
        """DEAL-8: the rows of the hand table that the set cannot deal (none until the
        options it reads have values)."""
        if not all(o in values for o in self.DEAL8_OPTIONS):
            return []
        if table is None and values["hand_sizes"] == CUSTOM:
            return []  # a table of its own, not given: some dealable table exists (DEAL-8)
        if table is None:
            table = self.options["hand_sizes"].values[values["hand_sizes"]].table
        size = tiles.set_size(max_pip_of(values))
        aside = 1 if values["engine_procedure"] == "set-aside" else 0
        return [(n, h) for n, h in table if n * h + aside > size]

    def from_values(self, values: Mapping[str, str], name: str | None = None,
                    table: tuple[tuple[int, int], ...] | None = None) -> Ruleset:
        """The rule set with exactly these option values (all of them), checked."""
        missing = [o for o in self.options if o not in values]
        if missing:
            raise RulesetError(f"no value for {', '.join(missing)}")
        if values["tile_set"] == OTHER:  # SET-1: every tile, pip and round follows from it
            raise RulesetError("tile_set cannot be `other`: name the set played")
        for option, value in values.items():
            if value == OTHER or (option == "hand_sizes" and value == CUSTOM and table):
                continue
            self._check_value(option, value)
        setters: Setters = {o: (None, o) for o in values}
        return self._finish(name or self.describe(values), dict(values), setters, (), table)

    def describe(self, values: Mapping[str, str]) -> str:
        """A name for an assignment: the closest shipped variant and the options that differ."""
        best, diff = "", list(self.options)
        for vname, base in self._variant_values.items():
            d = [o for o in self.options if values.get(o) != base[o]]
            if len(d) < len(diff):
                best, diff = vname, d
        return best + "".join(f",{o}={values[o]}" for o in diff if o in values)

    # -- rule-set files ---------------------------------------------------------------

    def rules_file(self, path: str | Path, text: str | None = None) -> Ruleset:
        """A rule-set file (spec/schemas/rules.schema.json) resolved into a Ruleset.

        Every problem is a SpecError at its line: the schema, an unknown base, overlay,
        option or value, an option left without a value, values that contradict a clause's
        `requires`, a hand table that cannot be dealt (DEAL-8).
        """
        doc = load(path, text)
        errors = shape_errors(doc, self.options, self.variants, self.overlays,
                              lambda: self.examples)
        if errors:
            raise SpecErrors(errors)
        d = doc.data
        name = str(d.get("name") or self._name_of_file(doc, Path(str(path)).stem))
        values: dict[str, str] = {}
        setters: Setters = {}
        overlays = tuple(d.get("overlays", ()))
        if "base" in d:
            if d["base"] not in self.variants:
                raise doc.error(("base",), f"unknown base variant {shown(d['base'])}; known: "
                                f"{', '.join(self.variants)}")
            values, setters, lineage = self._resolve(self.variants[d["base"]], ())
            try:
                values, setters = self._overlay(values, setters, lineage, overlays)
            except RulesetError as e:
                raise doc.error(("overlays",), str(e)) from None
            setters = {o: (doc, name) for o in setters}
        elif overlays:
            raise doc.error(("overlays",), "overlays need a base to apply to")
        table: tuple[tuple[int, int], ...] | None = None
        as_named = False  # a table written out that a named table has
        for option, value in (d.get("options") or {}).items():
            if option not in self.options:
                errors.append(doc.error(("options", option), f"unknown option {shown(option)}"
                                        f"{written_otherwise(option, self.options)}; "
                                        f"known: {', '.join(self.options)}"))
                continue
            setters[option] = (doc, name)
            known = self.options[option].values
            if isinstance(value, dict):
                if option != "hand_sizes":
                    errors.append(doc.error(("options", option), f"{option}: a table is "
                                            "allowed only for hand_sizes"))
                    continue
                rows = {int(k): k for k in value}
                if len(rows) < len(value):  # `2:` and `"2":`, apart to YAML, are one row
                    twice = next(k for k in value if rows[int(k)] != k)
                    errors.append(doc.error(("options", option, twice), f"hand_sizes gives "
                                            f"{int(twice)} players twice (as {twice!r} and "
                                            f"{rows[int(twice)]!r})"))
                    continue
                table = tuple(sorted((int(k), int(v)) for k, v in value.items()))
                named = [v.name for v in known.values() if v.table == table]
                values[option] = named[0] if named else CUSTOM
                as_named = bool(named)
            elif value == OTHER or value in known:
                values[option] = value
            else:
                escape = (tilesets.set_not_known(value) if option == "tile_set"
                          else TABLE_HINT if option == "hand_sizes"
                          else f" (or {OTHER}: played in a way none of these describes)")
                said = (f"unknown value {shown(value)} for {option}"
                        f"{written_otherwise(value, known)}")
                if option == "hand_sizes" and value == CUSTOM:  # identify's word for it
                    said = (f"hand_sizes `{CUSTOM}` (a table of one's own, as the wire and "
                            "identify's report name it) is written as the table itself")
                elif option == "hand_sizes" and re.fullmatch(rf"{CUSTOM}:\S+", str(value)):
                    # the scope check's name for a rule-set file's table (lint's examples)
                    said = (f"hand_sizes {shown(value)} is how lint's scope check names the "
                            f"table of the rule-set file {str(value)[len(CUSTOM) + 1:]}; a "
                            "rule-set file writes its table itself")
                errors.append(doc.error(("options", option),
                                        f"{said}; known: {', '.join(known)}{escape}"))
        for k, ov in enumerate(overlays):  # one the file's options undo wholly is no rule
            undone = self.overlays[ov].options
            if all(o in (d.get("options") or {}) and values.get(o) != v for o, v in undone.items()):
                errors.append(doc.error(("overlays", k), f"overlay {ov!r} sets only " + ", ".join(
                    f"{o}: {v}" for o, v in undone.items()) + ", which `options:` sets otherwise "
                    "here: the overlay does nothing; drop it or the option"))
        if errors:
            raise SpecErrors(errors)
        missing = [o for o in self.options if o not in values]
        if missing:
            raise doc.error(("options",), "a rule-set file without a base must give every "
                            f"option; missing: {', '.join(missing)}")
        if values["hand_sizes"] == OTHER:
            raise doc.error(("options", "hand_sizes"), "hand_sizes cannot be `other`: give "
                            "the table (players: tiles)")
        if values["tile_set"] == OTHER:  # SET-1: every tile, pip and round follows from it
            raise doc.error(("options", "tile_set"), "tile_set cannot be `other`: name the "
                            "set played (" + ", ".join(self.options["tile_set"].values)
                            + ")")
        if table is None and values["hand_sizes"] != CUSTOM:
            table = self.options["hand_sizes"].values[values["hand_sizes"]].table
        if as_named and self.conflicts(values, table) and not self.conflicts(
                {**values, "hand_sizes": CUSTOM}, table):
            values["hand_sizes"] = CUSTOM  # a named table's rows, on another set (DEAL-10)
        found = self._finish(name, values, setters, overlays, table)
        self._own_name(doc, found)
        return found

    @staticmethod
    def _name_of_file(doc: Document, stem: str) -> str:
        """A file without `name:` is named after itself, held to the schema's bounds on a
        name: a report cannot quote 250 characters, nor `a+b` as one rule set."""
        bounds = schema("rules")["properties"]["name"]
        if len(stem) > bounds["maxLength"] or not re.fullmatch(bounds["pattern"], stem):
            raise doc.error((), f"the file name {shown(stem)} cannot name the rule set (a "
                            f"name is at most {bounds['maxLength']} characters, on one line, "
                            "without `+`): give it a `name:`")
        return stem

    def _own_name(self, doc: Document, found: Ruleset) -> None:
        """A file named after a shipped rule set plays exactly its rules: reports label
        every result with the name, so `name: puremco` over other rules would pass them
        off as puremco's."""
        if found.name not in self.variants:  # (the schema keeps `+` out of a file's name)
            self._example_name(doc, found)
            return
        shipped = self.ruleset(found.name)
        differ = [f"{o}: {found[o]} (its {shipped[o]})" for o, _ in found.choices
                  if found[o] != shipped[o]]
        if differ or found.hand_table != shipped.hand_table:
            said = ", ".join(differ) or "hand_sizes: a table of its own"
            raise doc.error(("name",), f"name {found.name!r} is a shipped rule set's, whose "
                            f"rules differ ({said}): give the file a name of its own")

    def _example_name(self, doc: Document, found: Ruleset) -> None:
        """As _own_name, for the rule-set files of spec/data/rulesets/: fixtures name them
        as they name variants, so `name: double-10` over puremco's rules ran the fixtures
        of double-10's table under other rules (each an error of the implementation)."""
        if self._reading_examples or found.name in self.added_examples:
            return  # (the examples being read: each is its own)
        shipped = self.examples.get(found.name)
        if shipped is None or (dict(shipped.choices) == dict(found.choices)
                               and shipped.hand_table == found.hand_table):
            return
        differ = [f"{o}: {found[o]} (its {shipped[o]})" for o, _ in found.choices
                  if found[o] != shipped[o]] or ["hand_sizes: another table"]
        raise doc.error(("name",), f"name {found.name!r} is the rule-set file "
                        f"spec/data/rulesets/{found.name}.yaml's, whose rules differ "
                        f"({', '.join(differ)}): give the file a name of its own")

    @staticmethod
    def _fail(setter: tuple[Document | None, str], option: str, message: str) -> Exception:
        doc, _ = setter
        if doc is not None:
            e = doc.error(("options", option), message)
            return ConflictingValues(e.path, e.line, e.message)
        return RulesetError(message)

    # -- checks -----------------------------------------------------------------------

    def _check_value(self, option: str, value: str) -> None:
        if option not in self.options:
            raise RulesetError(f"unknown option {shown(option)}"
                               f"{written_otherwise(option, self.options)}; known: "
                               f"{', '.join(self.options)}")
        if isinstance(value, (dict, list)):  # a value is named; a table is given apart
            apart = (" (a table of one's own is `custom`, with the table beside the options)"
                     if option == "hand_sizes" else "")
            raise RulesetError(f"option {option} takes the name of a value, not "
                               f"{'an object' if isinstance(value, dict) else 'a list'} "
                               f"{shown(value)}{apart}; known: "
                               f"{', '.join(self.options[option].values)}")
        if value not in self.options[option].values:
            raise RulesetError(f"unknown value {shown(value)} for option {option}"
                               f"{written_otherwise(value, self.options[option].values)}; "
                               f"known: {', '.join(self.options[option].values)}"
                               + (tilesets.set_not_known(value) if option == "tile_set"
                                  else ""))

    def _check_names(self, vf: VariantFile) -> list[SpecError]:
        errors = []
        for option, value in vf.options.items():
            if option not in self.options:
                errors.append(vf.doc.error(("options", option), f"unknown option {shown(option)}"
                                           f"{written_otherwise(option, self.options)}; "
                                           f"known: {', '.join(self.options)}"))
            elif value not in self.options[option].values:
                errors.append(vf.doc.error(("options", option), f"unknown value {shown(value)} for "
                                           f"{option}; known: "
                                           f"{', '.join(self.options[option].values)}"
                                           + (tilesets.set_not_known(value)
                                              if option == "tile_set" else "")))
        for i, name in enumerate(vf.overlays):
            if name not in self.overlays:
                errors.append(vf.doc.error(("overlays", i), f"unknown overlay {shown(name)}"))
        return errors

    def clauses_for(self, option: str, value: str) -> list[Clause]:
        """The clauses that a value brings in: those whose `when` names it."""
        return [c for c in self.clauses.values() if value in c.when.get(option, ())]

    def applicable(self, rs: Mapping[str, str]) -> list[Clause]:
        return [c for c in self.clauses.values() if c.applies(rs)]


def _breaks(clause: Clause, values: Mapping[str, str]) -> bool:
    """Whether `values` gives every option the clause names, the clause applies, and its
    `requires` fails. (One loop each, no generators: the option-space grid asks it of every
    clause for each of its hundreds of thousands of compositions.)"""
    get = values.get
    for o, vs in clause.when.items():
        if get(o) not in vs:  # no value yet (None), or the clause does not apply
            return False
    broken = False
    for o, vs in clause.requires.items():
        v = get(o)
        if v is None:
            return False
        # A table of the rule set's own is judged by DEAL-8 alone, like any value `other`.
        if not (v in vs or v == OTHER or (o == "hand_sizes" and v == CUSTOM)):
            broken = True
    return broken


def max_pip_of(values: Mapping[str, str]) -> int:
    """The highest number of the rule set's tile set (its `highest` in options.yaml)."""
    return tilesets.highest(values["tile_set"])


def catalog() -> Catalog:
    """The specification (shipped, or the copy `MTRAIN_SPEC_DATA` names), loaded once."""
    other = os.environ.get(DATA_ENV)
    if not other:
        return _shipped_catalog()
    return _catalog(str(Path(other)))


@functools.cache
def _shipped_catalog() -> Catalog:
    # called once or more per result by conform: the environment lookup is all it costs
    return _catalog(str(shipped_data()))


@functools.cache
def _catalog(folder: str) -> Catalog:
    return Catalog()
