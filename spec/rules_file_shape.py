"""What a rule-set file (spec/schemas/rules.schema.json) gets wrong in its shape, said
before the schema would say it less well: an unknown option, a table or no name where a
value is named, the wire's table beside the options, a table per set, a base or overlay
named as a file or as --variant writes it; then the schema's own errors, less those
already said. The catalog reads the file once these are none (Catalog.rules_file)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from mtrain.spec.catalog_entries import Option
from mtrain.spec.errors import shown, written_otherwise
from mtrain.spec.yamlload import Document, SpecError
from mtrain.spec.yamlschema import schema, validate

MAX_VALUES = 10_000
"""The most values (mappings, lists and scalars) a rule-set file may hold: the largest
known holds 33; one of 200,000 (a hand-size table of 200,000 rows, 2.4 MB) was told what
is wrong with each row, and took minutes. Below the bound every problem is still counted
(a file of 3,000 stray options says 100 and counts the rest)."""


def shape_errors(doc: Document, options: Mapping[str, Option], variants: Mapping[str, Any],
                 overlays: Mapping[str, Any], examples: Callable[[], Mapping[str, Any]]
                 ) -> list[SpecError]:
    """Each error of `doc`'s shape at its line, given the catalog's `options`, the shipped
    `variants` and `overlays` and (asked only where a name is none of those) the rule-set
    files of spec/data/rulesets/ `examples`."""
    if len(doc.lines) > MAX_VALUES:  # each told at its line, thrice over, took minutes
        raise doc.error(list(doc.lines)[MAX_VALUES], f"a rule-set file holds at most "
                        f"{MAX_VALUES:,} values (a rule set needs some forty); this one holds "
                        f"{len(doc.lines):,}: the first past that is here")
    if isinstance(doc.data, list) and doc.data and isinstance(doc.data[0], dict) \
            and "id" in doc.data[0]:  # the schema: "expected a mapping, got a list"
        raise doc.error((), "a fixture file (a list of fixtures), not a rule-set file (a "
                        "mapping: name, base, options): --fixtures reads it")
    # an option name the catalogue does not know is said first, as such: the schema
    # would only say that its value has the wrong type (`tile_sett: 5`)
    given = doc.data.get("options") if isinstance(doc.data, dict) else None
    strays = [o for o in given if o not in options] if isinstance(given, dict) else []
    errors = [doc.error(("options", o), f"unknown option {shown(o)}"
                        f"{written_otherwise(o, options)}; known: "
                        f"{', '.join(options)}") for o in strays]
    # a table where a value is named: the schema would say its keys are no player counts
    option_names = set(options)  # sets, not the lists: a file may give 100,000 strays
    tables = [o for o in given if o != "hand_sizes" and isinstance(given[o], dict)
              and o in option_names] if isinstance(given, dict) else []
    errors += [doc.error(("options", o), f"option {o} takes the name of a value, not a "
                         "table (only hand_sizes takes one)") for o in tables]
    strays += tables
    # nothing, a number, a list where a value is named: the schema's "expected a string
    # or a mapping" offered a table to an option that takes none
    opts = given if isinstance(given, dict) else {}
    unnamed = [o for o, v in opts.items() if o != "hand_sizes" and o in option_names
               and o not in tables and not isinstance(v, str)]
    errors += [doc.error(("options", o), f"option {o} takes the name of a value ("
                         f"{', '.join(options[o].values)}"
                         f"{', or other' if o != 'tile_set' else ''}), got "
                         f"{_a_yaml(opts[o])}") for o in unnamed]
    strays += unnamed
    # the wire's form, a table beside the options: said as such, not as a stray key
    beside = isinstance(doc.data, dict) and "hand_sizes" in doc.data
    if beside:
        errors.append(doc.error(("hand_sizes",), "a hand-size table goes under `options:` "
                                "in a rule-set file (`options: {hand_sizes: {2: 15, 3: "
                                "13}}`, players: tiles), not beside it as on the wire"))
    # a table per set (`double-12: {2: 15}`, `double-9: ...`): the schema said each set
    # is no number of players and its table no number of tiles
    given_table = opts.get("hand_sizes")
    per_set = [str(k) for k, v in given_table.items() if isinstance(v, dict)
               and not str(k).isdigit()] if isinstance(given_table, dict) else []
    if per_set:
        errors.append(doc.error(("options", "hand_sizes"), "hand_sizes: a table for each "
                                f"of {', '.join(map(shown, per_set[:3]))}: a rule-set "
                                "file plays one set, its tile_set, and gives one table "
                                "(players: tiles, `{2: 15, 3: 13}`); write a file for "
                                "each set"))
        strays.append("hand_sizes")
    # a value that is no name (`custom:double-10`, `Double 12`): said by the check of
    # values below, what is wrong and what is allowed, not as the schema's pattern
    named = [o for o in given if o in option_names and o not in unnamed and o not in tables
             and isinstance(given[o], str)] if isinstance(given, dict) else []
    # a base or overlay named as a file: the schema would quote its pattern for names
    files = files_named(doc, variants, overlays, examples)
    errors += [doc.error(at, message) for at, message in files]
    stray_names = {str(o) for o in strays}
    errors += [e for e in validate(doc, schema("rules"))
               if not _names_an_option(str(e), stray_names)
               and not (beside and "unknown key 'hand_sizes';" in str(e))
               and not any(e.line == doc.line_of(("options", o))
                           and "does not match the pattern" in e.message for o in named)
               and not any(e.line == doc.line_of(at) and "does not match the pattern"
                           in e.message for at, _ in files)]
    return errors


def files_named(doc: Document, variants: Mapping[str, Any], overlays: Mapping[str, Any],
                examples: Callable[[], Mapping[str, Any]]
                ) -> list[tuple[tuple[str | int, ...], str]]:
    """(where, message) for each `base` or `overlays` item naming a file, or a rule-set
    file of spec/data/rulesets/: a rule-set file builds on shipped variants and
    overlays only, never on another file (one that names itself, or a missing one,
    was told only that its name broke the pattern of names); and for a name written
    as --variant writes a rule set (`pagat+blanks-25`) or in capitals (`Pagat`), which
    the pattern refused with no word of what to write."""
    d = doc.data if isinstance(doc.data, dict) else {}
    named: list[tuple[tuple[str | int, ...], str, str]] = []
    if isinstance(d.get("base"), str):
        named.append((("base",), d["base"], "variant"))
    if isinstance(d.get("overlays"), list):
        named += [(("overlays", k), name, "overlay") for k, name in enumerate(d["overlays"])
                  if isinstance(name, str)]
    out = []
    for at, name, kind in named:
        shipped = variants if kind == "variant" else overlays
        if name in shipped:
            continue
        if name in examples():  # as `mtrain rules double-10` names it
            what = f"{shown(name)} is a rule-set file (spec/data/rulesets/)"
        elif "/" in name or "\\" in name or name.endswith((".yaml", ".yml")):
            what = f"{shown(name)} is a file"
        elif "+" in name:  # `base: pagat+blanks-25`, a rule set's name, as --variant
            parts = [p.strip() for p in name.split("+")]
            written = (f"`base: {parts[0]}` and `overlays: [{', '.join(parts[1:])}]`"
                       if kind == "variant" else f"each as an item: [{', '.join(parts)}]")
            out.append((at, f"{at[0]}: {shown(name)} joins names with `+`, as --variant "
                        f"does: a rule-set file writes them apart, {written}"))
            continue
        elif name.lower() != name:  # `base: Pagat`: the schema quoted its pattern
            lower = name.lower()
            meant = f"({shown(lower)})" if lower in shipped else (
                f"and {shown(lower)} is none either; known: " + (
                    ", ".join(shipped) if kind == "variant" else "`mtrain variants` "
                    "lists them"))
            out.append((at, f"{at[0]}: {shown(name)}: names are written in lower case "
                        f"{meant}"))
            continue
        else:
            continue
        known = ", ".join(shipped) if kind == "variant" else "`mtrain variants` lists them"
        out.append((at, f"{at[0]}: {what}, not a shipped {kind}: a rule-set file builds "
                    f"on a variant and overlays only ({known}); copy the options it needs "
                    "from the file instead"))
    return out


def _a_yaml(value: object) -> str:
    """A YAML value that is no name, in words: what a file wrote where a name goes."""
    if value is None:
        return "null (a key with no value)"
    kind = {bool: "a boolean", int: "an integer", float: "a number", list: "a list"}.get(
        type(value), type(value).__name__)
    return f"{kind} ({shown(value)})" if not isinstance(value, list) else f"{kind}"


def _names_an_option(text: str, names: set[str]) -> bool:
    """Whether `text` speaks of `options.NAME` (a whole word), NAME one of `names`: found by
    the words after each `options.`, not by a search per name (a file of 20,000 stray
    options took a minute, each schema error searched for each stray)."""
    for found in re.finditer(r"\boptions\.", text):
        rest = text[found.end():]
        if any(rest[:end.start()] in names for end in re.finditer(r"\b", rest)
               if end.start()):
            return True
    return False
