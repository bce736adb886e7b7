"""Session 48's Rust engine (tests/examples/rust/flatcar.rs), written in an author's
first hour from the docs alone: the faults its runs showed in the suite.

Its bug "blank-fifty" scores the double blank 50 at face value (SCORE-1). A round whose
scores are wrong only at a seat holding nothing but blanks (worth 0 at face value, so the
hands give it 0), or at a single seat by an amount no count of hands explains, was
charged to the scoring rule (SCORE-5: who scores) rather than to the tiles' values."""

from mtrain.conformance.score_charges import _values_only


def test_a_seat_of_blanks_scoring_in_a_round_gone_out_is_a_tile_value() -> None:
    # seat 1 holds [0-0] alone (0 at face value) and scores 50; seat 0 went out, 0 both
    breach = "a round gone out: round scores [0, 50], the hands left give [0, 0]"
    assert _values_only(breach, went_out=0)
    assert _values_only("a round gone out: round scores [0, 7, 50], the hands left give "
                        "[0, 7, 0]", went_out=0)
    # the same numbers where seat 1 went out: the seat out scores, who scores is wrong
    # (signalbox's bug: the last tile laid scored), and so where nobody says who went out
    assert not _values_only(breach, went_out=1)
    assert not _values_only(breach)


def test_a_single_scoring_seat_off_by_no_whole_factor_is_a_tile_value() -> None:
    # [5-5], [0-0] and [3-0] give 13; 63 with the double blank at 50: no hand counted twice
    assert _values_only("a round gone out: round scores [0, 63], the hands left give [0, 13]")
    # the same hand counted twice is still the scoring rule's
    assert not _values_only("a round gone out: round scores [0, 26], the hands left give "
                            "[0, 13]")


def test_who_scores_stays_the_scoring_rule() -> None:
    # the seat that went out scoring (positive scoring against penalty)
    assert not _values_only("a round gone out: round scores [5, 20, 11], the hands left "
                            "give [0, 20, 11]")
    assert not _values_only("a round gone out: round scores [31, 0, 0], the hands left "
                            "give [0, 20, 11]")


def test_a_blocked_seat_of_blanks_is_a_tile_value_unless_the_lowest_hand_is_free() -> None:
    breach = ("a blocked round: round scores [14, 37, 22, 50], the hands left give "
              "[14, 37, 22, 0]")
    assert _values_only(breach, lowest_free=False)
    # under SCORE-7 the lowest hand scores nothing: a seat scoring there is who scores
    assert not _values_only(breach, lowest_free=True)


def test_a_refusal_citing_no_clause_of_the_specification_says_how_ids_are_written(
        ) -> None:
    # flatcar's author, first hour: a clause id written in lower case ("train-4") was
    # reported only as "refused by train-4, expected TRAIN-4", the two looking alike
    from mtrain.conformance.expectation_checks import unknown_clause
    said = unknown_clause("train-4")
    assert said.startswith("; train-4 is no clause of the specification")
    assert "in capitals (TRAIN-4)" in said
    assert "no clause" in unknown_clause("TRAIN-99")
    assert unknown_clause("TRAIN-4") == ""


def test_under_positive_scoring_a_seat_owed_nothing_that_scores_is_who_collects() -> None:
    # the merge's CI: a blocked round under positive scoring scores nothing (SCORE-6); an
    # engine scoring the hands there (the mutants positive-blocked-scores-hands and
    # positive-blocked-lightest-collects) was charged a tile's value by the reading above,
    # which holds only where each seat scores its own hand (penalty scoring, SCORE-5)
    breach = ("a blocked round: round scores [14, 37, 22, 50], the hands left give "
              "[0, 0, 0, 0]")
    assert not _values_only(breach, lowest_free=False, own_hands=False)
    assert not _values_only("a round gone out: round scores [0, 50], the hands left give "
                            "[0, 0]", went_out=0, own_hands=False)
    # the collector of a round gone out short of some hands (mut17-positive-collects-
    # eight-hands): who collects what, not a tile's value
    assert not _values_only("a round gone out: round scores [0, 0, 120], the hands left "
                            "give [0, 0, 131]", own_hands=False)
    assert _values_only("a round gone out: round scores [0, 0, 120], the hands left "
                        "give [0, 0, 131]")
