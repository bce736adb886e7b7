"""Pictures of the table: a canonical state drawn as SVG, with no external service.

The engine sits at the hub on the left; every train is a spoke drawn as a line of
tiles, its owner and marker at the start; doubles lie crosswise, and a double still
open is ringed in amber. The hands are shown below, the player to move first; when
legal plays are given, each playable tile is ringed in green and every train it may
go on gets a green slot at its open end.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

TILE_W, TILE_H = 52, 26  # a tile laid along its train
GAP = 4
ROW_H = 58
LABEL_W = 118
MAX_SHOWN = 13  # longer trains show their first tile, a gap, and the last ones

INK = "#23313f"
FACE = "#fbf8f1"
EDGE = "#5b6b7a"
AMBER = "#e08a00"
GREEN = "#1f9d55"
MARKER = "#c0392b"
MUTED = "#8795a1"

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
    """Legal plays to mark: tile text -> trains ("0", "mexican") it may go on."""

    plays: Mapping[str, Sequence[str]]
    other: Sequence[str] = ()  # draw / pass / end-chain


def highlight_from_actions(actions: Iterable[Mapping[str, Any]]) -> Highlight:
    plays: dict[str, list[str]] = {}
    other: list[str] = []
    for a in actions:
        if a.get("type") == "play":
            plays.setdefault(_canon(str(a["tile"])), []).append(str(a["train"]))
        else:
            other.append(str(a.get("type")))
    return Highlight(plays, other)


def _canon(tile: str) -> str:
    a, b = (int(x) for x in tile.split("-"))
    return f"{max(a, b)}-{min(a, b)}"


class _Canvas:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(self, x: float, y: float, s: str, size: int = 13, fill: str = INK,
             anchor: str = "start", weight: str = "normal") -> None:
        self.add(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" '
                 f'text-anchor="{anchor}" font-weight="{weight}">{escape(s)}</text>')

    def tile(self, x: float, y: float, a: int, b: int, vertical: bool = False,
             ring: str | None = None, scale: float = 1.0) -> None:
        """A tile with its top-left corner at (x, y): `a` on the left (or top) half."""
        w = (TILE_H if vertical else TILE_W) * scale
        h = (TILE_W if vertical else TILE_H) * scale
        self.add(f"<g><title>[{a}-{b}]</title>")
        if ring:
            self.add(f'<rect x="{x - 3:.1f}" y="{y - 3:.1f}" width="{w + 6:.1f}" '
                     f'height="{h + 6:.1f}" rx="6" fill="none" stroke="{ring}" '
                     'stroke-width="2.5"/>')
        self.add(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="4" '
                 f'fill="{FACE}" stroke="{EDGE}" stroke-width="1.2"/>')
        if vertical:
            self.add(f'<line x1="{x + 3:.1f}" y1="{y + h / 2:.1f}" x2="{x + w - 3:.1f}" '
                     f'y2="{y + h / 2:.1f}" stroke="{EDGE}" stroke-width="1"/>')
            self._pips(x, y, w, h / 2, a, vertical=True)
            self._pips(x, y + h / 2, w, h / 2, b, vertical=True)
        else:
            self.add(f'<line x1="{x + w / 2:.1f}" y1="{y + 3:.1f}" x2="{x + w / 2:.1f}" '
                     f'y2="{y + h - 3:.1f}" stroke="{EDGE}" stroke-width="1"/>')
            self._pips(x, y, w / 2, h, a)
            self._pips(x + w / 2, y, w / 2, h, b)
        self.add("</g>")

    def _pips(self, x: float, y: float, w: float, h: float, n: int,
              vertical: bool = False) -> None:
        # The grid's long side (4 rows) runs along the half's long side.
        pad = min(w, h) * 0.2
        r = min(w, h) * (0.075 if n > 9 else 0.09)
        for col, row in PIPS.get(n, []):
            if vertical:  # half is wide: rows run across
                px = x + pad + (w - 2 * pad) * row / 3
                py = y + pad + (h - 2 * pad) * col / 2
            else:
                px = x + pad + (w - 2 * pad) * col / 2
                py = y + pad + (h - 2 * pad) * row / 3
            self.add(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="{r:.1f}" fill="{INK}"/>')


def _ends(text: str) -> tuple[int, int]:
    a, b = text.split("-")
    return int(a), int(b)


def render_state(state: Mapping[str, Any], highlight: Highlight | None = None,
                 title: str | None = None) -> str:
    """SVG text for a canonical state (spec/schemas/state.schema.json)."""
    cv = _Canvas()
    trains: list[tuple[str, str, Mapping[str, Any]]] = [
        (str(i), f"Seat {i}", t) for i, t in enumerate(state["trains"])]
    trains.append(("mexican", "Mexican", state["mexican"]))
    open_doubles = {str(x) for x in state.get("open_doubles", [])}
    targets: dict[str, list[str]] = {}
    if highlight:
        for tile, where in highlight.plays.items():
            for train in where:
                targets.setdefault(train, []).append(tile)
    top = 40 if title else 14
    hub_x = 16
    rows_h = ROW_H * len(trains)
    if title:
        cv.text(16, 26, title, size=15, weight="bold")
    engine = int(state["engine"])
    # The hub: the engine, standing crosswise, and a spoke to every train.
    hub_cx = LABEL_W + hub_x + TILE_H / 2
    hub_cy = top + rows_h / 2
    first_x = LABEL_W + hub_x + TILE_H + 24
    for k, (_key, _label, _t) in enumerate(trains):
        cy = top + k * ROW_H + ROW_H / 2
        cv.add(f'<path d="M{hub_cx:.1f},{hub_cy:.1f} C{hub_cx + 20:.1f},{hub_cy:.1f} '
               f'{first_x - 20:.1f},{cy:.1f} {first_x - 4:.1f},{cy:.1f}" fill="none" '
               f'stroke="{MUTED}" stroke-width="1.5"/>')
    if state.get("engine_placed", True):
        cv.tile(LABEL_W + hub_x, hub_cy - TILE_W / 2, engine, engine, vertical=True)
    else:
        cv.text(LABEL_W + hub_x - 4, hub_cy + 4, f"[{engine}-{engine}] not yet found",
                size=11, fill=MUTED)
    right = 0.0
    for k, (key, label, t) in enumerate(trains):
        cy = top + k * ROW_H + ROW_H / 2
        to_move = key == str(state.get("seat")) and state.get("phase") != "over"
        cv.text(16, cy + 4, label + (" \u25c0" if to_move else ""), size=13,
                weight="bold" if to_move else "normal")
        if t.get("marker"):
            cv.add(f'<g><circle cx="{LABEL_W - 22}" cy="{cy:.1f}" r="9" fill="{MARKER}"/>'
                   f'<text x="{LABEL_W - 22}" y="{cy + 4:.1f}" font-size="11" fill="white" '
                   'text-anchor="middle" font-weight="bold">M</text>'
                   '<title>marker: open to every player</title></g>')
        x = _draw_train(cv, first_x, cy, list(t["tiles"]), key in open_doubles)
        cv.text(x - 2, cy - TILE_H / 2 - 4, str(t["end"]), size=10, fill=MUTED)
        right = max(right, x)
        if key in targets:
            slot_w = TILE_W
            cv.add(f'<rect x="{x:.1f}" y="{cy - TILE_H / 2:.1f}" width="{slot_w}" '
                   f'height="{TILE_H}" rx="4" fill="none" stroke="{GREEN}" '
                   'stroke-width="2" stroke-dasharray="4 3"/>')
            note = "\u2190 " + ", ".join(sorted(targets[key]))
            cv.text(x + slot_w + 8, cy + 4, note, size=12, fill=GREEN, weight="bold")
            right = max(right, x + slot_w + 16 + 7 * len(note))
    y: float = top + rows_h + 22
    y, hands_right = _draw_hands(cv, state, highlight, y)
    right = max(right, hands_right)
    bone = state.get("boneyard", [])
    info = f"Boneyard: {len(bone)} tile{'s' if len(bone) != 1 else ''}"
    info += f"   \u00b7   phase: {state.get('phase')}"
    if state.get("drawn"):
        info += f"   \u00b7   just drew [{state['drawn']}]"
    if highlight and highlight.other:
        info += "   \u00b7   also legal: " + ", ".join(highlight.other)
    result = state.get("result")
    if result:
        who = result.get("winner")
        info += f"   \u00b7   round over ({result['end']}"
        info += f", seat {who} went out)" if who is not None else ")"
    cv.text(16, y + 10, info, size=12, fill=MUTED)
    height = y + 24
    width = int(max(right + 20, 16 + 6.5 * len(info) + 20, 480))
    body = "\n".join(cv.parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height:.0f}" '
            f'viewBox="0 0 {width} {height:.0f}" font-family="Helvetica, Arial, sans-serif">\n'
            f'<rect width="100%" height="100%" fill="#eef3ee"/>\n{body}\n</svg>\n')


def _draw_train(cv: _Canvas, x: float, cy: float, tiles: list[str], open_end: bool) -> float:
    shown: list[str | None] = list(tiles)
    if len(tiles) > MAX_SHOWN:
        shown = [tiles[0], None, *tiles[-(MAX_SHOWN - 2):]]
    for i, tile in enumerate(shown):
        if tile is None:
            cv.text(x + 6, cy + 4, f"\u2026 {len(tiles) - MAX_SHOWN + 1} more", size=11,
                    fill=MUTED)
            x += TILE_W + GAP
            continue
        a, b = _ends(tile)
        last = i == len(shown) - 1
        if a == b:
            ring = AMBER if last and open_end else None
            cv.tile(x, cy - TILE_W / 2, a, b, vertical=True, ring=ring)
            x += TILE_H + GAP
        else:
            cv.tile(x, cy - TILE_H / 2, a, b)
            x += TILE_W + GAP
    return x + 4


def _draw_hands(cv: _Canvas, state: Mapping[str, Any], highlight: Highlight | None,
                y: float) -> tuple[float, float]:
    hands = state["hands"]
    seat = int(state.get("seat", 0))
    order = [seat, *[s for s in range(len(hands)) if s != seat]]
    right = 0.0
    for s in order:
        label = f"Hand {s}" + (" \u2014 to play" if s == seat else "")
        cv.text(16, y + 4, label, size=12, weight="bold" if s == seat else "normal")
        x = 16.0
        scale = 1.0 if s == seat else 0.7
        ty = y + 12
        for tile in hands[s]:
            a, b = _ends(tile)
            ring = None
            if highlight and s == seat and _canon(tile) in highlight.plays:
                ring = GREEN
            cv.tile(x, ty, a, b, ring=ring, scale=scale)
            x += (TILE_W + GAP + 3) * scale
        if not hands[s]:
            cv.text(16, ty + 14, "(empty)", size=11, fill=MUTED)
        right = max(right, x)
        y = ty + TILE_H * scale + 20
    return y, right
