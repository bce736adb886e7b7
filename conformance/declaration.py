"""What an implementation says it plays, read once and used by conform, fuzz and identify.

An implementation's info (its hello answer, or an adapter's `info()`) may carry:

- `rules`: the one rule set it plays, in the protocol's rule-set form
  (`{"options": {option: value}, "hand_sizes": {"2": 15, ...}}`); a value `other` says
  the engine plays that rule in a way no known value describes. An engine that declares
  its rules is run under them, and only them, unless the user asks for rule sets
  (--variant, --rules): what is asked for wins.
- `variants`: shell-style patterns of the rule-set names it can play when asked
  (`pagat`, `puremco+*`, `*`), and `options`: option -> the values it can play. These
  remove the rule sets it cannot play from a run, never those of a --rules file.
"""

from __future__ import annotations

import fnmatch
import functools
import json
import os
import re
from collections.abc import Callable, Mapping
from typing import Any, Final

from mtrain.spec import tilesets
from mtrain.spec.catalog import RulesetError, catalog
from mtrain.spec.errors import shown, written_otherwise
from mtrain.spec.ruleset import CUSTOM, MAX_PLAYERS, OTHER, Ruleset
from mtrain.spec.yamlload import SpecError

ADDED_WITHIN_V1: Final = {"doubles": "open", "match_length": "full"}
"""Options added within protocol version 1, each with the value every rule set had before
it: a declaration that leaves one out plays that value (docs/protocol.md)."""


class DeclarationError(ValueError):
    """A `rules` declaration that does not describe a rule set."""


RULES_KEYS: Final = frozenset({"name", "options", "hand_sizes"})
"""The fields of a rule set on the wire (protocol.schema.json#/$defs/ruleset)."""


def unread_rules_fields(info: Mapping[str, Any] | None) -> list[str]:
    """The warning for fields of a hello's `rules` the protocol does not read (its schema
    lets them be, so they are no error): a misspelt `hand_sizes` left the table the
    options name played, unseen."""
    rules = (info or {}).get("rules")
    if not isinstance(rules, dict):
        return []
    extra = sorted(map(str, rules.keys() - RULES_KEYS))
    if not extra:
        return []
    import difflib  # (only here: a server's start imports this module)

    near = difflib.get_close_matches(extra[0].strip().casefold(), RULES_KEYS, 1, 0.75)
    return [f"the hello's `rules` has field{'s' if len(extra) > 1 else ''} "
            f"{', '.join(map(shown, extra[:5]))}{' ...' if len(extra) > 5 else ''}, "
            f"{'which protocol v1 does not read' if len(extra) > 1 else 'not of protocol v1'}"
            f"{f' (did you mean {near[0]!r}?)' if near else ''}: ignored; a rule set's "
            f"fields: {', '.join(sorted(RULES_KEYS))}"]


def _or_other(option: str, value: object) -> str:
    """The `other` an unknown value's message offers, where the option takes it: a tile
    set of one's own is none (SET-1: every tile, pip and round follows from it), and a
    double-N set the suite lacks is said so, with what its author can do."""
    return tilesets.set_not_known(value) if option == "tile_set" else f", or {OTHER!r}"


def check_limits(info: Mapping[str, Any] | None) -> None:
    """`options` (option -> the values it can play) naming only known options and values:
    a limit on an option no rule set has would be ignored unseen (an `other` is a value
    of its own, played in a way no known value describes)."""
    options = (info or {}).get("options") or {}
    if not isinstance(options, dict):
        raise DeclarationError("`options` must map option names to lists of values")
    cat = catalog()
    for option, values in options.items():
        if option not in cat.options:
            raise DeclarationError(f"`options` names unknown option {shown(option)}"
                                   f"{written_otherwise(option, cat.options)}; known: "
                                   f"{', '.join(cat.options)}")
        if not isinstance(values, list):
            raise DeclarationError(f"`options.{option}` must be a list of values")
        if not values:  # every rule set would be "not applicable (only )", nothing run
            raise DeclarationError(f"`options.{option}` lists no value: no rule set could "
                                   "be played (leave the option out if every value is)")
        known = cat.options[option].values
        for value in values:
            if value != OTHER and value not in known and not (
                    option == "hand_sizes" and value == CUSTOM):
                raise DeclarationError(f"`options.{option}`: unknown value {shown(value)}"
                                       f"{written_otherwise(value, known)}; "
                                       f"known: {', '.join(known)}{_or_other(option, value)}")


def declared_ruleset(info: Mapping[str, Any] | None) -> Ruleset | None:
    """The rule set an implementation declares it plays, or None if it declares none;
    its `options` checked too (check_limits)."""
    check_limits(info)
    if not info or info.get("rules") is None:
        return None
    rules = info["rules"]
    if not isinstance(rules, dict) or not isinstance(rules.get("options"), dict):
        raise DeclarationError("`rules` must be an object with `options` (option -> value)")
    if "name" in rules and not isinstance(rules["name"], str):
        raise DeclarationError(f"`rules.name` must be a string (what reports call the rule "
                               f"set), got {json.dumps(rules['name'])[:60]}")
    if rules.get("name"):
        _check_name(rules["name"])
    cat = catalog()
    options = dict(rules["options"])
    for option, value in options.items():
        if option not in cat.options:
            raise DeclarationError(f"`rules.options` names unknown option {shown(option)}"
                                   f"{written_otherwise(option, cat.options)}; known: "
                                   f"{', '.join(cat.options)}")
        known = cat.options[option].values
        if option == "hand_sizes" and isinstance(value, dict):  # as a rule-set file has it
            raise DeclarationError("`rules.options.hand_sizes`: a table of one's own is "
                                   "declared apart: `rules.hand_sizes` (players -> tiles, e.g. "
                                   '{"2": 15}) with `rules.options.hand_sizes` `custom`, got '
                                   f"{json.dumps(value)[:60]}")
        if not isinstance(value, str):
            raise DeclarationError(f"`rules.options.{option}`: expected a value's name, got "
                                   f"{json.dumps(value)[:60]}")
        if value != OTHER and value not in known and not (
                option == "hand_sizes" and value == CUSTOM):
            raise DeclarationError(f"`rules.options.{option}`: unknown value {shown(value)}"
                                   f"{written_otherwise(value, known)}; "
                                   f"known: {', '.join(known)}{_or_other(option, value)}")
    for option, value in ADDED_WITHIN_V1.items():  # left out by a declaration written before
        options.setdefault(option, value)
    missing = [o for o in cat.options if o not in options]
    if missing:
        raise DeclarationError("`rules.options` must give one value per option (`other` for "
                               f"a rule played its own way); missing: {', '.join(missing)}")
    table = None
    raw_table = rules.get("hand_sizes")
    if raw_table == {}:  # read on as no table at all, it was "unknown value 'custom'"
        raise DeclarationError("`rules.hand_sizes` is empty: a hand table gives the tiles "
                               'dealt for each player count it seats (e.g. {"2": 15})')
    if raw_table is not None:
        try:
            table = hand_rows(raw_table, "`rules.hand_sizes`")
        except ValueError as e:
            raise DeclarationError(f"{e} (players -> tiles, e.g. {{\"2\": 15}})") from None
        named = [v.name for v in cat.options["hand_sizes"].values.values() if v.table == table]
        if options["hand_sizes"] in (CUSTOM, OTHER):
            # a table of one's own whose rows a named table of another set has (DEAL-10)
            # is still one's own, as a rule-set file reads it (spec/catalog.py)
            fits = [v for v in named if not cat.conflicts({**options, "hand_sizes": v}, table)]
            options["hand_sizes"] = fits[0] if fits else CUSTOM
        elif options["hand_sizes"] not in named:  # which of the two does it deal?
            raise DeclarationError(f"`rules.hand_sizes` is not the table `rules.options."
                                   f"hand_sizes` names ({options['hand_sizes']}): give one "
                                   "of them, or the table with hand_sizes `custom`")
    if options["hand_sizes"] in (CUSTOM, OTHER) and table is None:
        raise DeclarationError("`rules.options.hand_sizes`: a hand table of one's own needs "
                               '`rules.hand_sizes` (players -> tiles, e.g. {"2": 15})')
    name = str(rules.get("name") or _as_name(info.get("name")) or "declared")
    try:
        declared = cat.from_values(options, name=name, table=table)
    except RulesetError as e:
        raise DeclarationError(f"`rules`: {e}") from None
    _check_named_alike(declared)
    return declared


def _check_named_alike(declared: Ruleset) -> None:
    """A declaration named after a known rule set (pagat, pagat+blanks-25, double-10) plays
    that rule set: the reports called rules of its own by the name of another."""
    name = declared.name
    if _no_base(name) or _file_like(name):  # no known rule set's name (never a file's)
        return
    if name in catalog().added_examples:  # a fixture's own rule-set file, not shipped: a
        return  # fuzz reproducer's records the stand-in of the engine's rules, by its name
    try:
        known = catalog().ruleset(name)
    except (RulesetError, SpecError, OSError, ValueError):
        return
    differ = [f"{o}: {declared[o]} (its {known[o]})" for o, _ in declared.choices
              if declared[o] != known[o]]
    if differ or declared.hand_table != known.hand_table:  # as a file's name (catalog.py)
        said = ", ".join(differ) or "hand_sizes: a table of its own"
        raise DeclarationError(f"`rules.name`: {shown(name)} is a shipped rule set's, whose "
                               f"rules differ ({said}): give the rules a name of their own")


@functools.cache
def _name_rule() -> tuple[re.Pattern[str], int]:
    """A rule-set file's `name` (rules.schema.json): its pattern and longest length."""
    from mtrain.spec.yamlschema import schema

    name = schema("rules")["properties"]["name"]
    return re.compile(name["pattern"]), int(name["maxLength"])


def _check_name(name: str) -> None:
    """A declared rule set's name is what a rule-set file may be called, but for `+`
    (a declaration may name the composed rule set it plays, pagat+blanks-25): the
    report's table printed a newline or a terminal's escape in it as is (a row broken in
    two, a colour for the rest of the report)."""
    pattern, longest = _name_rule()
    if len(name) > longest:
        raise DeclarationError(f"`rules.name`: {shown(name)} is longer than {longest:,} "
                               "characters (what reports call the rule set)")
    if not pattern.search(name.replace("+", "-")):
        raise DeclarationError(f"`rules.name`: {shown(name)} is not a name on one line, not "
                               "blank, without control characters (nor invisible or "
                               "direction-changing ones)")


def _as_name(name: object) -> str | None:
    """The implementation's name, as its rule set's where `rules` gives none: only if a
    rule-set file could be called so (the label of a report's row, read as given)."""
    if not isinstance(name, str):
        return None
    try:
        _check_name(name)
    except DeclarationError:
        return None
    return name


_PLAYERS = re.compile(r"[1-9][0-9]{0,2}", re.ASCII)


def hand_rows(table: Any, where: str) -> tuple[tuple[int, int], ...]:
    """The rows of a hand-size table sent as JSON (players as text -> tiles), read as
    protocol.schema.json writes them: int() would take ' 2', '02' or a full-width 2 for 2
    (one row given twice, one silently lost), and 1.5 or true for a number of tiles.
    A ValueError naming `where` if it is not such a table."""
    if type(table) is not dict:
        raise ValueError(f"{where} must be an object, got {json.dumps(table)[:60]}")
    rows = []
    for n, h in table.items():
        if not (isinstance(n, str) and _PLAYERS.fullmatch(n)):
            raise ValueError(f"{where}: {n!r:.80} is not a number of players (written 2, "
                             "3, ..., with no space nor leading zero)")
        if type(h) is not int or h < 1:
            raise ValueError(f"{where}[{n!r}]: {h!r:.80} is not a number of tiles (a "
                             "whole number, 1 or more)")
        if not 2 <= int(n) <= MAX_PLAYERS:  # as a rule-set file's table (rules.schema.json)
            raise ValueError(f"{where}: {n!r} is not a number of players, 2 to {MAX_PLAYERS}: "
                             "a table of one's own seats no fewer than two nor more than "
                             "twenty")  # as rules.schema.json says it
        rows.append((int(n), h))
    return tuple(sorted(rows))


def unsupported(info: Mapping[str, Any] | None, name: str, rs: Ruleset | None, *,
                asked: bool = False, from_file: bool = False) -> str | None:
    """Why the implementation does not play rule set `name` (`rs`), or None if it does.

    What the user asks wins over what the implementation declares: a rule set asked for
    (`asked`: --variant, --rules) is not refused for differing from the declared `rules`,
    and one from a rule-set file (`from_file`, which says what the engine plays) is not
    filtered by its `variants` or `options` either."""
    if info is None or from_file:
        return None
    declared = info.get("rules")
    if declared is not None and rs is not None and not asked:
        mine = declared_ruleset(info)
        if mine is not None and dict(mine.choices) != dict(rs.choices):
            differ = [o for o, v in mine.choices if rs[o] != v]
            return ("the implementation plays its declared rules only; they differ in "
                    + ", ".join(differ))
        return None
    patterns = info.get("variants", ["*"])
    if isinstance(patterns, list) and not _matcher(tuple(map(str, patterns)))(name):
        return f"the implementation supports {_listed(patterns) or 'no variant'}"
    return beyond_options(info, rs)


@functools.lru_cache(maxsize=4)
def _matcher(patterns: tuple[str, ...]) -> Callable[[str], bool]:
    """Whether a rule set's name matches one of a hello's `variants` (fnmatchcase of
    each), the patterns compiled once: fnmatch keeps 32,768 compiled, and a hello of
    40,000 names compiled each again for every rule set (a run of 3.5 minutes, not 3 s)."""
    exact = frozenset(p for p in patterns if not any(c in p for c in "*?["))
    globs = [re.compile(fnmatch.translate(p)).match for p in patterns if p not in exact]
    return lambda name: name in exact or any(m(name) is not None for m in globs)


def unknown_variants(info: Mapping[str, Any] | None) -> list[str]:
    """A warning for each name the hello's `variants` lists that is no rule set here (a
    pattern, with * ? or [, is left alone): every fixture under it was "not applicable",
    and the report said only that the implementation "supports nosuch"."""
    out: list[str] = []
    more = 0
    for name in (info or {}).get("variants") or ():
        if isinstance(name, str) and _REGEX.search(name):  # `.*`: no name has a dot first
            out.append(f"the hello's variants name {shown(name)}, which reads as a regular "
                       "expression: variants are shell-style patterns (`*` for every rule "
                       "set, `puremco+*` for puremco with any overlays)")
            continue
        if not isinstance(name, str) or any(c in name for c in "*?["):
            continue
        if len(out) >= UNKNOWN_SAID and _no_base(name):  # counted, not told: no message built
            more += 1
            continue
        if _no_base(name) and _file_like(name):  # a name, never read as a file here
            out.append(f"the hello's variants name {shown(name)}, which is no rule set here "
                       "(a hello names variants, not files): nothing is run under it")
            continue
        try:
            catalog().ruleset(name)
        except (RulesetError, ValueError, SpecError) as e:
            if len(out) == UNKNOWN_SAID:  # one warning a name flooded the report
                more += 1
                continue
            out.append(f"the hello's variants name {shown(name)}, which is no rule set here "
                       f"({e}): nothing is run under it")
    if more:
        out.append(f"the hello's variants name {more:,} more that are no rule set here")
    return out


def _no_base(name: str) -> bool:
    """Whether `name`'s first word names no variant nor rule-set file: no rule set,
    known at a glance (a hello of 300,000 such names took 35 s, each one's error built
    with its suggestions, to be counted only)."""
    cat = catalog()
    base = name.split("+")[0]
    return base not in cat.variants and base not in cat.examples


def _file_like(name: str) -> bool:
    """Whether catalog().ruleset would read `name` as a rule-set file: a hello naming a
    file of the harness's folder (`drive.py`) ended the run on that file's YAML error."""
    return name.endswith((".yaml", ".yml")) or "/" in name or os.path.lexists(name)


_REGEX = re.compile(r"\.[*+]|^\^|\$$|\\[dws.]|[|()]")
"""What marks a pattern written as a regular expression (`.*`, `^pagat$`, `pagat|puremco`):
no rule set's name holds any of it."""

UNKNOWN_SAID: Final = 5
"""The names of a hello's `variants` that are no rule set said one by one; the rest are
counted (a hello of 40,000 names wrote as many warnings)."""


def empty_name(info: Mapping[str, Any] | None) -> list[str]:
    """A warning when the hello's `name` is empty (or only spaces): the answer is to name
    the implementation (docs/protocol.md), and the reports' header said nothing where the
    name goes. Not refused: the schema asks for a string, and the label is no rule."""
    name = (info or {}).get("name")
    if not isinstance(name, str) or name.strip():
        return []
    return ["the hello's `name` is empty: it is what the reports call the implementation "
            "(docs/protocol.md); they call it by its command instead"]


def unread_limits(info: Mapping[str, Any] | None) -> list[str]:
    """A warning when the hello gives `rules` and, beside them, `variants` or `options`:
    the declared rules are what is run, and the limits were passed over unsaid (an
    engine declaring its house rules and `"variants": ["pagat"]` was never run under
    pagat, nor told why)."""
    info = info or {}
    if info.get("rules") is None:
        return []
    # `"variants": ["*"]` (the default beside rules) and `"options": {}` limit nothing: an
    # adapter built on the reference's, declaring its rules, inherits the first
    beside = [f for f in ("variants", "options") if info.get(f) not in (None, ["*"], {})]
    if not beside:
        return []
    rules = info["rules"]
    name = rules.get("name") if isinstance(rules, dict) else None
    said = f" ({shown(name)})" if isinstance(name, str) and name else ""
    return [f"the hello declares `rules` and {' and '.join(f'`{f}`' for f in beside)}: "
            f"the declared rules{said} say what the implementation plays, and its "
            f"{' and '.join(beside)} are not read"]


def beyond_options(info: Mapping[str, Any] | None, rs: Ruleset | None) -> str | None:
    """The first value of `rs` that the implementation's `options` (option -> the values
    it can play) leave out, said as a reason; None when it lists them all."""
    options = (info or {}).get("options") or {}
    if rs is not None and isinstance(options, dict):
        for option, values in options.items():
            if option in rs and isinstance(values, list) and rs[option] not in values:
                return (f"the implementation does not support {option}={rs[option]} "
                        f"(only {_listed(values)})")
    return None


LISTED = 8
"""How many of the names a hello lists a reason quotes: the reason is a line of the report,
and of each result it holds, and a hello may list 100,000 names."""


def _listed(given: list[Any]) -> str:
    names = list(dict.fromkeys(str(n) for n in given))  # a name given twice, listed once
    more = len(names) - LISTED
    shown = ", ".join(f"{n:.60}" for n in names[:LISTED])
    return shown + (f" and {more:,} more" if more > 0 else "")
