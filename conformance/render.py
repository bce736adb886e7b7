"""Pictures of the table: a canonical state drawn as SVG, with no external service.

The table is drawn as a person sees it. The engine stands crosswise at the hub; a spoke
runs from it to every train, and each train is a line of tiles read from the engine
outwards, its owner named at the left with the marker (a red M) when it is down. Doubles
lie crosswise; a double still open is ringed in amber and numbered in the order the
doubles were laid (the oldest is covered first). The hands are shown below, the player to
move first, each tile labelled. When legal plays are given, every playable tile in the
hand is ringed in green and every train it may go on gets a dashed green slot at its open
end naming the tiles, turned the way they would be laid; plays an implementation offered
that the rules do not allow are shown in red.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape, quoteattr

if TYPE_CHECKING:
    from mtrain.conformance.adapter import Implementation
    from mtrain.conformance.fixture import Fixture
    from mtrain.spec.ruleset import Ruleset

TILE_W, TILE_H = 60, 30  # a tile laid along its train
GAP = 5
ROW_H = 74  # a double stands TILE_W tall, ringed
MARGIN = 20
LABEL_W = 118  # owner, marker
MAX_SHOWN = 12  # longer trains show their first tile, a gap, and the last ones
HAND_ROW = 16  # tiles per row in the hand of the player to move (others: a third more)

INK = "#1f2d3a"
PAGE = "#f6f7f4"
FELT = "#dde9de"
FELT_EDGE = "#bcd2bf"
FACE = "#fffdf6"
EDGE = "#4f5d6b"
AMBER = "#d97f00"
GREEN = "#18864b"
RED = "#c62828"
MARKER = "#c0392b"
MUTED = "#6f7d89"
SPOKE = "#9aaa9c"

# Pip positions on a 3-column by 4-row grid (columns 0..2, rows 0..3) for 10..12, and on
# the usual 3 by 3 grid for 0..9 (rows 0, 1.5, 3).
_P9: dict[int, list[tuple[float, float]]] = {
    0: [], 1: [(1, 1.5)], 2: [(0, 0), (2, 3)], 3: [(0, 0), (1, 1.5), (2, 3)],
    4: [(0, 0), (2, 0), (0, 3), (2, 3)], 5: [(0, 0), (2, 0), (1, 1.5), (0, 3), (2, 3)],
    6: [(0, 0), (2, 0), (0, 1.5), (2, 1.5), (0, 3), (2, 3)],
    7: [(0, 0), (2, 0), (0, 1.5), (1, 1.5), (2, 1.5), (0, 3), (2, 3)],
    8: [(0, 0), (1, 0), (2, 0), (0, 1.5), (2, 1.5), (0, 3), (1, 3), (2, 3)],
    9: [(c, r) for r in (0, 1.5, 3) for c in (0, 1, 2)],
}
_FULL: list[tuple[float, float]] = [(c, r) for r in (0, 1, 2, 3) for c in (0, 1, 2)]
PIPS: dict[int, list[tuple[float, float]]] = {
    **_P9,
    10: [p for p in _FULL if p not in ((1, 0), (1, 3))],
    11: [p for p in _FULL if p != (1, 3)],
    12: _FULL,
}


@dataclass(frozen=True)
class Highlight:
    """Plays to mark.

    `plays`: the legal plays, tile text -> the trains ("0", "mexican") it may go on;
    `other`: the other legal actions (draw, pass, end-chain). `wrong` and `wrong_other`:
    actions an implementation offered that the rules do not allow (drawn in red);
    `missed`: legal plays (tile, train) it did not offer, and `missed_other` other legal
    actions it did not offer (both labelled "missed").
    """

    plays: Mapping[str, Sequence[str]]
    other: Sequence[str] = ()
    wrong: Mapping[str, Sequence[str]] = field(default_factory=dict)
    wrong_other: Sequence[str] = ()
    missed: frozenset[tuple[str, str]] = frozenset()
    missed_other: Sequence[str] = ()


@dataclass(frozen=True)
class Differences:
    """Where two canonical states of one table differ, for marking on both pictures:
    the trains (tiles or marker) and hands that differ, and the other fields by name."""

    trains: frozenset[str] = frozenset()  # "0", "1", ..., "mexican"
    hands: frozenset[int] = frozenset()
    fields: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.trains or self.hands or self.fields)

    def words(self) -> list[str]:
        """The differences named, in reading order."""
        return ([f"train {t}" if t != "mexican" else "the Mexican Train"
                 for t in sorted(self.trains, key=lambda t: (t == "mexican", t))]
                + [f"hand {s}" for s in sorted(self.hands)] + list(self.fields))


COMPARED = ("engine", "engine_placed", "boneyard", "drawn", "open_doubles", "passes",
            "phase", "seat", "starter", "first_turns", "turn_doubles", "scores", "outs",
            "result")
"""The fields beside trains and hands that a picture's differences name."""


def state_differences(a: Mapping[str, Any], b: Mapping[str, Any]) -> Differences:
    """How state `a` differs from state `b` (both canonical: state.schema.json); a hand
    counts as its set of tiles, a train as its tiles in order and its marker."""
    trains = set()
    ta, tb = list(a.get("trains", [])), list(b.get("trains", []))
    for i in range(max(len(ta), len(tb))):
        x = ta[i] if i < len(ta) else {}
        y = tb[i] if i < len(tb) else {}
        if (list(x.get("tiles", [])), bool(x.get("marker"))) != (
                list(y.get("tiles", [])), bool(y.get("marker"))):
            trains.add(str(i))
    if (a.get("mexican") or {}).get("tiles") != (b.get("mexican") or {}).get("tiles"):
        trains.add("mexican")
    ha, hb = list(a.get("hands", [])), list(b.get("hands", []))
    hands = {s for s in range(max(len(ha), len(hb)))
             if sorted(map(_canon, ha[s] if s < len(ha) else []))
             != sorted(map(_canon, hb[s] if s < len(hb) else []))}
    fields = tuple(k for k in COMPARED if a.get(k) != b.get(k))
    return Differences(frozenset(trains), frozenset(hands), fields)


def highlight_from_actions(actions: Iterable[Mapping[str, Any]]) -> Highlight:
    plays, other = _split(actions)
    return Highlight(plays, other)


def highlight_from_texts(legal: Iterable[str], missing: Iterable[str] = (),
                         extra: Iterable[str] = ()) -> Highlight:
    """A highlight from actions in text form (`play 5-3 on 0`, `draw`): the legal ones,
    and those an implementation missed or offered wrongly."""
    plays, other = _split(_parse(t) for t in legal)
    wrong, wrong_other = _split(_parse(t) for t in extra)
    missed_plays, missed_other = _split(_parse(t) for t in missing)
    missed = frozenset((tile, train) for tile, trains in missed_plays.items()
                       for train in trains)
    return Highlight(plays, other, wrong, wrong_other, missed, missed_other)


def _parse(text: str) -> dict[str, str]:
    words = text.split()
    if len(words) == 4 and words[0] == "play" and words[2] == "on":
        return {"type": "play", "tile": words[1], "train": words[3]}
    return {"type": text.strip()}


def _split(actions: Iterable[Mapping[str, Any]]) -> tuple[dict[str, list[str]], list[str]]:
    plays: dict[str, list[str]] = {}
    other: list[str] = []
    for a in actions:
        if a.get("type") == "play":
            where = plays.setdefault(_canon(str(a["tile"])), [])
            if str(a["train"]) not in where:
                where.append(str(a["train"]))
        elif str(a.get("type")) not in other:
            other.append(str(a.get("type")))
    return plays, other


def _canon(tile: str) -> str:
    a, b = (int(x) for x in tile.split("-"))
    return f"{max(a, b)}-{min(a, b)}"


def _laid(tile: str, end: int) -> str:
    """The tile as it would be laid on an open end `end`: the matching half first."""
    a, b = _ends(tile)
    return f"{a}-{b}" if a == end else f"{b}-{a}"


def _ends(text: str) -> tuple[int, int]:
    a, b = text.split("-")
    return int(a), int(b)


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _text_w(s: str, size: float) -> float:
    """A generous estimate of the width of `s` in a sans-serif font."""
    return len(s) * size * 0.58


class _Canvas:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(self, x: float, y: float, s: str, size: float = 13, fill: str = INK,
             anchor: str = "start", weight: str = "normal", italic: bool = False) -> None:
        style = ' font-style="italic"' if italic else ""
        self.add(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" fill="{fill}" '
                 f'text-anchor="{anchor}" font-weight="{weight}"{style}>{escape(s)}</text>')

    def tile(self, x: float, y: float, a: int, b: int, vertical: bool = False,
             ring: str | None = None, scale: float = 1.0, dashed: bool = False) -> None:
        """A tile with its top-left corner at (x, y): `a` on the left (or top) half."""
        w = (TILE_H if vertical else TILE_W) * scale
        h = (TILE_W if vertical else TILE_H) * scale
        small = scale < 1  # another player's hand: labelled below, no shadow, no tooltip
        self.add("<g>" if small else f"<g><title>[{a}-{b}]</title>")
        if ring:
            dash = ' stroke-dasharray="5 3"' if dashed else ""
            self.add(f'<rect x="{x - 4:.1f}" y="{y - 4:.1f}" width="{w + 8:.1f}" '
                     f'height="{h + 8:.1f}" rx="7" fill="none" stroke="{ring}" '
                     f'stroke-width="3"{dash}/>')
        if not small:
            self.add(f'<rect x="{x + 1.2:.1f}" y="{y + 1.6:.1f}" width="{w:.1f}" '
                     f'height="{h:.1f}" rx="4" fill="#000" fill-opacity="0.13"/>')
        self.add(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="4" '
                 f'fill="{FACE}" stroke="{EDGE}" stroke-width="1.2"/>')
        if vertical:
            self.add(f'<line x1="{x + 4:.1f}" y1="{y + h / 2:.1f}" x2="{x + w - 4:.1f}" '
                     f'y2="{y + h / 2:.1f}" stroke="{EDGE}" stroke-width="1"/>')
            self._pips(x, y, w, h / 2, a, vertical=True)
            self._pips(x, y + h / 2, w, h / 2, b, vertical=True)
        else:
            self.add(f'<line x1="{x + w / 2:.1f}" y1="{y + 4:.1f}" x2="{x + w / 2:.1f}" '
                     f'y2="{y + h - 4:.1f}" stroke="{EDGE}" stroke-width="1"/>')
            self._pips(x, y, w / 2, h, a)
            self._pips(x + w / 2, y, w / 2, h, b)
        self.add("</g>")

    def _pips(self, x: float, y: float, w: float, h: float, n: int,
              vertical: bool = False) -> None:
        # The grid's long side (4 rows) runs along the half's long side.
        # Every pip of the half is one zero-length stroke with round caps: a dot of
        # diameter stroke-width, and a fraction of the bytes of a circle each.
        pad = min(w, h) * 0.2
        r = min(w, h) * (0.08 if n > 9 else 0.095)
        dots = []
        for col, row in PIPS.get(n, []):
            if vertical:  # half is wide: rows run across
                px = x + pad + (w - 2 * pad) * row / 3
                py = y + pad + (h - 2 * pad) * col / 2
            else:
                px = x + pad + (w - 2 * pad) * col / 2
                py = y + pad + (h - 2 * pad) * row / 3
            dots.append(f"M{px:.1f} {py:.1f}h0")
        if dots:
            self.add(f'<path d="{"".join(dots)}" stroke="{INK}" stroke-width="{2 * r:.1f}" '
                     'stroke-linecap="round"/>')

    def marker(self, cx: float, cy: float) -> None:
        self.add(f'<g><title>marker: this train is open to every player</title>'
                 f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="10" fill="{MARKER}"/>'
                 f'<text x="{cx:.1f}" y="{cy + 4.5:.1f}" font-size="12" fill="white" '
                 'text-anchor="middle" font-weight="bold">M</text></g>')

    def slot(self, x: float, cy: float, colour: str) -> None:
        self.add(f'<rect x="{x:.1f}" y="{cy - TILE_H / 2:.1f}" width="{TILE_W}" '
                 f'height="{TILE_H}" rx="4" fill="{colour}" fill-opacity="0.08" '
                 f'stroke="{colour}" stroke-width="2" stroke-dasharray="5 3"/>')


@dataclass
class _Train:
    key: str  # "0", "1", ..., "mexican"
    label: str
    tiles: list[str]
    end: int
    marker: bool


def render_state(state: Mapping[str, Any], highlight: Highlight | None = None,
                 title: str | None = None, differ: Differences | None = None) -> str:
    """SVG text for a canonical state (spec/schemas/state.schema.json). With `differ`,
    the trains, hands and fields where it differs from another state are marked in red
    (a failure's two tables, the rules' and the implementation's, marked alike)."""
    cv = _Canvas()
    differ = differ or Differences()
    trains = [_Train(str(i), f"Seat {i}", list(t["tiles"]), int(t["end"]),
                     bool(t.get("marker"))) for i, t in enumerate(state["trains"])]
    mexican = state.get("mexican")
    if mexican is not None:
        trains.append(_Train("mexican", "Mexican", list(mexican["tiles"]),
                             int(mexican["end"]), False))
    open_order = [str(x) for x in state.get("open_doubles", [])]
    over = state.get("phase") == "over"
    seat = int(state.get("seat", 0))
    hl = highlight or Highlight({})

    right = 0.0
    y = 14.0
    if title:
        cv.text(MARGIN, y + 16, title, size=17, weight="bold")
        right = MARGIN + _text_w(title, 17)
        y += 26
    summary = _summary(state)
    cv.text(MARGIN, y + 14, summary, size=12.5, fill=MUTED)
    right = max(right, MARGIN + _text_w(summary, 12.5))
    y += 28
    if differ:
        note = "\u2260 differs: " + ", ".join(differ.words())
        cv.text(MARGIN, y + 8, note, size=12.5, fill=RED, weight="bold")
        right = max(right, MARGIN + _text_w(note, 12.5))
        y += 20
        shown = [f"{k} {_field_text(state.get(k))}" for k in differ.fields]
        if shown:
            line = "here: " + "; ".join(shown)
            cv.text(MARGIN, y + 8, line, size=12, fill=RED)
            right = max(right, MARGIN + _text_w(line, 12))
            y += 20

    # -- the table: hub, spokes, trains ------------------------------------------------
    table_top = y
    rows_top = table_top + 12
    rows_h = ROW_H * len(trains)
    felt = len(cv.parts)  # the felt goes under everything; its width is known at the end
    hub_x = MARGIN + LABEL_W
    hub_cy = rows_top + rows_h / 2
    first_x = hub_x + TILE_H + 40
    engine = int(state["engine"])
    for k in range(len(trains)):
        cy = rows_top + k * ROW_H + ROW_H / 2
        sx = hub_x + TILE_H + 2
        cv.add(f'<path d="M{sx:.1f},{hub_cy:.1f} C{sx + 22:.1f},{hub_cy:.1f} '
               f'{first_x - 26:.1f},{cy:.1f} {first_x - 6:.1f},{cy:.1f}" fill="none" '
               f'stroke="{SPOKE}" stroke-width="2" stroke-linecap="round"/>')
    if state.get("engine_placed", True):
        cv.tile(hub_x, hub_cy - TILE_W / 2, engine, engine, vertical=True)
    else:
        cv.add(f'<rect x="{hub_x:.1f}" y="{hub_cy - TILE_W / 2:.1f}" width="{TILE_H}" '
               f'height="{TILE_W}" rx="4" fill="{FACE}" fill-opacity="0.5" stroke="{MUTED}" '
               'stroke-width="1.5" stroke-dasharray="4 3"/>')
        cv.text(hub_x + TILE_H / 2, hub_cy + 6, "?", size=18, fill=MUTED, anchor="middle",
                weight="bold")
        cv.text(hub_x + TILE_H / 2, hub_cy + TILE_W / 2 + 16, f"[{engine}-{engine}]",
                size=11, fill=MUTED, anchor="middle")
        cv.text(hub_x + TILE_H / 2, hub_cy + TILE_W / 2 + 29, "not yet found", size=11,
                fill=MUTED, anchor="middle")
    for k, t in enumerate(trains):
        cy = rows_top + k * ROW_H + ROW_H / 2
        to_move = t.key == str(seat) and not over
        if to_move:
            cv.add(f'<path d="M{MARGIN - 12:.1f},{cy - 6:.1f} l9,6 l-9,6 z" fill="{INK}"/>')
        odd = t.key in differ.trains
        cv.text(MARGIN, cy + 5, ("\u2260 " if odd else "") + t.label, size=14,
                weight="bold" if to_move or odd else "normal", fill=RED if odd else INK)
        if t.marker:
            cv.marker(MARGIN + 76, cy)
        number = open_order.index(t.key) + 1 if t.key in open_order else 0
        x = _draw_train(cv, first_x, cy, t.tiles, number, len(open_order))
        if odd:  # the train's tiles (or its marker) differ: framed
            cv.add(f'<rect x="{MARGIN - 8}" y="{cy - ROW_H / 2 + 3:.1f}" '
                   f'width="{x - MARGIN + 8:.1f}" height="{ROW_H - 6}" rx="8" fill="none" '
                   f'stroke="{RED}" stroke-width="2" stroke-dasharray="6 4"/>')
        if not t.tiles:
            cv.text(first_x, cy - TILE_H / 2 - 5, f"empty, open end {t.end}", size=11,
                    fill=MUTED, italic=True)
        elif number:
            tag = "open double" if len(open_order) == 1 else \
                f"open double ({_ordinal(number)} laid)"
            cv.text(x, cy - TILE_H / 2 - 6, tag, size=11, fill=AMBER, weight="bold")
            right = max(right, x + _text_w(tag, 11))
        else:
            cv.text(x - 11, cy - TILE_H / 2 - 5, str(t.end), size=11, fill=MUTED,
                    anchor="end")
        right = max(right, x)
        right = max(right, _draw_targets(cv, x, cy, t, hl))
    table_bottom = rows_top + rows_h + 8
    if hl.other or hl.wrong_other:
        y = table_bottom + 6
        if hl.other:
            note = ("Also legal: " if hl.plays else "Legal: ") + ", ".join(
                a + (" (missed)" if a in hl.missed_other else "") for a in hl.other)
            cv.text(first_x, y + 14, note, size=13, fill=GREEN, weight="bold")
            right = max(right, first_x + _text_w(note, 13))
            y += 20
        if hl.wrong_other:
            note = "Offered, not allowed: " + ", ".join(hl.wrong_other)
            cv.text(first_x, y + 14, note, size=13, fill=RED, weight="bold")
            right = max(right, first_x + _text_w(note, 13))
            y += 20
        table_bottom = y + 6

    # -- the hands -----------------------------------------------------------------------
    y = table_bottom + 26
    y, hands_right = _draw_hands(cv, state, hl, y, differ.hands)
    right = max(right, hands_right)

    # -- the legend ------------------------------------------------------------------------
    y, legend_right = _legend(cv, state, hl, y + 4)
    right = max(right, legend_right)
    width = int(max(right + MARGIN, 520))
    cv.parts.insert(felt, f'<rect x="{MARGIN - 14}" y="{table_top:.1f}" '
                    f'width="{width - 2 * MARGIN + 28}" height="{table_bottom - table_top:.1f}" '
                    f'rx="14" fill="{FELT}" stroke="{FELT_EDGE}"/>')
    height = int(y + 14)
    label = title or "a Mexican Train table"
    body = "\n".join(cv.parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-label={quoteattr(label)} '
            'font-family="Helvetica, Arial, sans-serif">\n'
            f"<title>{escape(label)}</title>\n"
            f'<rect width="100%" height="100%" rx="10" fill="{PAGE}"/>\n{body}\n</svg>\n')


def _summary(state: Mapping[str, Any]) -> str:
    engine = int(state["engine"])
    bone = len(state.get("boneyard", []))
    parts = [f"Round {state.get('round', '?')}", f"engine [{engine}-{engine}]",
             f"boneyard {bone} tile{'s' if bone != 1 else ''}"]
    phase = state.get("phase")
    seat = state.get("seat")
    result = state.get("result")
    if phase == "over" and result:
        who = result.get("winner")
        ended = f"seat {who} went out" if who is not None else "blocked"
        parts.append(f"round over: {ended}")
        scores = result.get("scores")
        if scores:
            parts.append("round scores " + ", ".join(map(str, scores)))
    else:
        doing = {"engine": "drawing for the engine", "chain": "laying a first-turn chain",
                 "follow": "must follow the double just laid", "start": "to play"}
        parts.append(f"seat {seat} {doing.get(str(phase), str(phase))}")
    if state.get("drawn"):
        parts.append(f"just drew [{state['drawn']}]")
    if state.get("passes"):
        n = int(state["passes"])
        parts.append(f"{n} pass{'es' if n != 1 else ''} in a row")
    return "  \u00b7  ".join(parts)


def _draw_train(cv: _Canvas, x: float, cy: float, tiles: list[str], open_number: int,
                open_count: int) -> float:
    shown: list[str | None] = list(tiles)
    if len(tiles) > MAX_SHOWN:
        shown = [tiles[0], None, *tiles[-(MAX_SHOWN - 2):]]
    for i, tile in enumerate(shown):
        if tile is None:
            hidden = len(tiles) - MAX_SHOWN + 1
            cv.text(x + TILE_W / 2, cy + 4, f"\u2026 {hidden} more \u2026", size=11,
                    fill=MUTED, anchor="middle", italic=True)
            x += TILE_W + GAP
            continue
        a, b = _ends(tile)
        last = i == len(shown) - 1
        if a == b:
            ring = AMBER if last and open_number else None
            cv.tile(x, cy - TILE_W / 2, a, b, vertical=True, ring=ring)
            if ring and open_count > 1:
                bx, by = x + TILE_H + 4, cy + TILE_W / 2 - 2
                cv.add(f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="8" fill="{AMBER}"/>')
                cv.text(bx, by + 4, str(open_number), size=11, fill="white",
                        anchor="middle", weight="bold")
            x += TILE_H + GAP
        else:
            cv.tile(x, cy - TILE_H / 2, a, b)
            x += TILE_W + GAP
    return x + 6


def _draw_targets(cv: _Canvas, x: float, cy: float, t: _Train, hl: Highlight) -> float:
    """The slots at a train's open end: the legal plays (green), wrong ones (red)."""
    good = sorted(tile for tile, where in hl.plays.items() if t.key in where)
    bad = sorted(tile for tile, where in hl.wrong.items() if t.key in where)
    if not good and not bad:
        return x
    cv.slot(x, cy, GREEN if good else RED)
    tx = x + TILE_W + 10
    right = tx
    if good:
        words = [_laid(tile, t.end) + (" (missed)" if (tile, t.key) in hl.missed else "")
                 for tile in good]
        note = "\u2190 " + ", ".join(words)
        cv.text(tx, cy + (5 if not bad else -3), note, size=13, fill=GREEN, weight="bold")
        right = max(right, tx + _text_w(note, 13))
    if bad:
        note = "\u2717 " + ", ".join(_laid(tile, t.end) for tile in bad) + " not allowed"
        cv.text(tx, cy + (5 if not good else 14), note, size=13, fill=RED, weight="bold")
        right = max(right, tx + _text_w(note, 13))
    return right


def _field_text(value: Any) -> str:
    if isinstance(value, list):
        if len(value) > 8:  # a boneyard: its size and its top
            return f"{len(value)} tiles [" + ", ".join(map(str, value[:6])) + ", \u2026]"
        return "[" + ", ".join(map(str, value)) + "]"
    return "none" if value is None else str(value)


def _draw_hands(cv: _Canvas, state: Mapping[str, Any], hl: Highlight,
                y: float, odd: frozenset[int] = frozenset()) -> tuple[float, float]:
    hands = state["hands"]
    over = state.get("phase") == "over"
    seat = int(state.get("seat", 0))
    order = [seat, *[s for s in range(len(hands)) if s != seat]]
    if over:
        order = list(range(len(hands)))
    right = 0.0
    drawn = state.get("drawn")
    for s in order:
        mover = s == seat and not over
        hand = list(hands[s])
        n = len(hand)
        pips = sum(a + b for a, b in (_ends(t) for t in hand))
        label = f"Seat {s}'s hand, {n} tile{'s' if n != 1 else ''}, {pips} pips"
        if mover:
            label += ", to draw for the engine" if state.get("phase") == "engine" \
                else ", to play"
        if s in odd:  # its tiles differ from the other picture's
            label = "\u2260 " + label
        cv.text(MARGIN, y, label, size=13 if mover else 12,
                weight="bold" if mover or s in odd else "normal",
                fill=RED if s in odd else INK)
        right = max(right, MARGIN + _text_w(label, 13))
        scale = 1.0 if mover else 0.72
        per_row = HAND_ROW if mover else round(HAND_ROW * 4 / 3)
        hidden = 0
        if not mover and n > per_row + 2:  # another player's big hand: one row, and a count
            hidden = n - (per_row - 1)
            hand = hand[:per_row - 1]
        labelled = mover or n <= per_row
        step = (TILE_W + GAP + 6) * scale
        row_h = TILE_H * scale + (18 if labelled else 10)
        ty = y + 12
        if mover and drawn is not None:  # room for "just drawn" above the tile
            ty += 10
        for i, tile in enumerate(hand):
            col, row = i % per_row, i // per_row
            x = MARGIN + col * step
            top = ty + row * row_h
            a, b = _ends(tile)
            ring, dashed = None, False
            if mover and _canon(tile) in hl.plays:
                ring = GREEN
            elif mover and _canon(tile) in hl.wrong:
                ring, dashed = RED, True
            cv.tile(x, top, a, b, ring=ring, scale=scale, dashed=dashed)
            if labelled:
                cv.text(x + TILE_W * scale / 2, top + TILE_H * scale + 13, tile,
                        size=10.5 if mover else 9.5, fill=MUTED, anchor="middle")
            if mover and drawn is not None and _canon(tile) == _canon(str(drawn)):
                cv.text(x + TILE_W * scale / 2, top - 6, "just drawn", size=10, fill=INK,
                        anchor="middle", italic=True)
            right = max(right, x + step)
        if hidden:
            x = MARGIN + len(hand) * step
            cv.text(x + 4, ty + TILE_H * scale / 2 + 4, f"\u2026 and {hidden} more", size=11,
                    fill=MUTED, italic=True)
            right = max(right, x + 4 + _text_w(f"... and {hidden} more", 11))
        rows = max(1, -(-len(hand) // per_row))
        if not n:
            cv.text(MARGIN, ty + 14, "(empty)", size=11, fill=MUTED, italic=True)
        y = ty + rows * row_h + 22
    return y, right


def _legend(cv: _Canvas, state: Mapping[str, Any], hl: Highlight,
            y: float) -> tuple[float, float]:
    items: list[tuple[str, str]] = []
    if hl.plays:
        items.append(("green", "legal play: the tile, and where it may go"))
    if hl.wrong or hl.wrong_other:
        items.append(("red", "offered by the implementation, not allowed"))
    if state.get("open_doubles"):
        items.append(("amber", "open double, still to be covered"))
    if any(t.get("marker") for t in state["trains"]):
        items.append(("marker", "marker: the train is open to everyone"))
    x = float(MARGIN)
    for kind, what in items:
        if kind == "marker":
            cv.marker(x + 8, y - 4)
        else:
            colour = {"green": GREEN, "red": RED, "amber": AMBER}[kind]
            cv.add(f'<rect x="{x:.1f}" y="{y - 12:.1f}" width="16" height="16" rx="4" '
                   f'fill="none" stroke="{colour}" stroke-width="3"/>')
        cv.text(x + 24, y + 1, what, size=11.5, fill=MUTED)
        x += 24 + len(what) * 11.5 * 0.5 + 22
    return (y + 12 if items else y - 8), x


# --- fixtures ------------------------------------------------------------------------------


def fixture_state(fx: Fixture, variant: str | Ruleset,
                  impl: Implementation | None = None,
                  upto: int | None = None) -> dict[str, Any] | None:
    """The state a fixture's expectations speak about under `variant` (its table or deal,
    then its steps, or only the first `upto` of them), as the reference engine (or `impl`)
    plays it; None when the fixture does not set up under that rule set."""
    from mtrain.conformance.adapter import (
        ReferenceImplementation,
        Refused,
        RefusedSetup,
        ruleset_json,
    )
    from mtrain.conformance.runner import resolve, start_state, take_step
    from mtrain.spec.catalog import RulesetError
    from mtrain.spec.notation import FixtureError
    from mtrain.spec.yamlload import SpecError

    engine = impl if impl is not None else ReferenceImplementation()
    try:
        rs = resolve(variant) if isinstance(variant, str) else variant
        rj = ruleset_json(rs)
        state = start_state(fx, rs, rj, engine)
        for step in fx.steps[:upto]:
            state = take_step(engine, rj, rs, state, step, fx.deal_draw())
    except (FixtureError, Refused, RefusedSetup, RulesetError, SpecError, ValueError,
            KeyError):
        return None
    return dict(state)


def draw_fixture(fx: Fixture, variant: str | Ruleset, *, missing: Iterable[str] = (),
                 extra: Iterable[str] = (), impl: Implementation | None = None,
                 title: str | None = None, upto: int | None = None,
                 differ: Differences | None = None) -> str | None:
    """The SVG of a fixture under a rule set (a name, or the rule set itself), its expected
    legal plays marked (and, for a failure, the plays an implementation missed or offered
    wrongly). With `upto`, the state after that many steps, unmarked: the fixture's
    expectations speak of the state after all of them."""
    from mtrain.conformance.runner import resolve

    name = variant if isinstance(variant, str) else variant.name
    exp = next((e for n, e in fx.rulesets() if n == name), None)
    if exp is None:
        try:
            values = dict((resolve(variant) if isinstance(variant, str) else variant).choices)
        except ValueError:
            values = {}
        exp = next((e for e in fx.expect if values and e.scope.contains(values)), None)
    state = fixture_state(fx, variant, impl, upto)
    if state is None:
        return None
    if upto is not None and upto < len(fx.steps):
        return render_state(state, None, title if title is not None else
                            f"{fx.id} under {name}, after step {upto}", differ)
    hl = None
    if (exp is not None and exp.legal is not None) or extra:
        hl = highlight_from_texts(exp.legal if exp is not None and exp.legal else (),
                                  missing, extra)
    return render_state(state, hl, title if title is not None else f"{fx.id} under {name}",
                        differ)
