"""identify made faster without changing an answer (session 49): each cut gives what the
code it replaced gave, checked here against that code's plain definition."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from mtrain.conformance.identify.cells import ANY, Piece
from mtrain.conformance.identify.solve import lacks_table

OPTIONS = {"doubles": ("open", "ordinary"), "follow_up": ("anywhere", "restricted", "cover-own"),
           "match_length": ("full", "single-round")}


def lacks_by_definition(piece: Piece, pieces: Sequence[Piece],
                        seen: Sequence[tuple[int, str | None]]) -> frozenset[str]:
    """solve.lacks_table as its docstring says it, option by option (the code it had
    before session 49): the options `o` of `piece` such that a piece with an outcome at
    an entry `piece` has none (ANY) pins `o` to values `piece` does not allow, and shares
    a value with it in every other option both pin."""
    anys = [i for i, _ in seen if piece.outcomes[i] == ANY]
    out = set()
    for o, vs in piece.region.items():
        for q in pieces:
            if (anys and o in q.region and not q.region[o] & vs
                    and any(q.outcomes[i] != ANY for i in anys)
                    and all(q.region[k] & piece.region[k]
                            for k in piece.region.keys() & q.region.keys() if k != o)):
                out.add(o)
    return frozenset(out)


@st.composite
def fixtures(draw: st.DrawFn) -> tuple[list[Piece], list[tuple[int, str | None]]]:
    """A fixture's pieces over three options (each pinning some of them to some of their
    values, an outcome per entry, ANY among them) and the entries seen."""
    entries = draw(st.integers(1, 3))
    pieces = []
    for _ in range(draw(st.integers(2, 8))):
        region = {}
        for o, vs in OPTIONS.items():
            if draw(st.integers(0, 3)):  # (mostly pinned, mostly to one value: apart)
                region[o] = frozenset(draw(st.lists(st.sampled_from(vs), min_size=1,
                                                    max_size=1 + draw(st.integers(0, 3)) // 3)))
        outcomes = tuple(draw(st.lists(st.sampled_from(("pass", "fail", ANY)),
                                       min_size=entries, max_size=entries)))
        pieces.append(Piece(region, outcomes, tuple(region)))
    seen: list[tuple[int, str | None]] = [(i, "fail") for i in range(entries)
                                          if draw(st.booleans())]
    return pieces, seen


@settings(max_examples=120, deadline=None)
@given(fixtures())
def test_lacks_table_gives_what_its_definition_gives(
        case: tuple[list[Piece], list[tuple[int, str | None]]]) -> None:
    """One pass over each neighbour's options (the option they alone differ in) finds the
    options the definition finds option by option, with and without the pieces with an
    outcome kept between the calls of one fixture (`live`, by the entries asked): a
    piece lacking other entries than the one before recomputes them."""
    pieces, seen = case
    live: dict[tuple[int, ...], list[Mapping[str, frozenset[str]]]] = {}
    for p in pieces:
        want = lacks_by_definition(p, pieces, seen)
        assert lacks_table(p, pieces, seen) == want
        assert lacks_table(p, pieces, seen, live) == want


def test_the_pieces_kept_for_one_set_of_entries_are_not_used_for_another() -> None:
    # two pieces lacking different entries of one fixture: the first's neighbours (with
    # an outcome at entry 0) are not the second's (at entry 1)
    lacking_0 = Piece({"doubles": frozenset({"ordinary"})}, (ANY, "pass"), ("doubles",))
    lacking_1 = Piece({"follow_up": frozenset({"anywhere"})}, ("pass", ANY), ("follow_up",))
    has_0 = Piece({"doubles": frozenset({"open"})}, ("fail", ANY), ("doubles",))
    has_1 = Piece({"follow_up": frozenset({"restricted"})}, (ANY, "fail"), ("follow_up",))
    pieces = [lacking_0, lacking_1, has_0, has_1]
    seen: list[tuple[int, str | None]] = [(0, "fail"), (1, "fail")]
    live: dict[tuple[int, ...], list[Mapping[str, frozenset[str]]]] = {}
    assert lacks_table(lacking_0, pieces, seen, live) == frozenset({"doubles"})
    assert lacks_table(lacking_1, pieces, seen, live) == frozenset({"follow_up"})
    assert set(live) == {(0,), (1,)}
