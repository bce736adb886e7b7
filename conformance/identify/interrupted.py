"""identify interrupted (SIGINT, or SIGTERM as child.Interrupted): what it had found
before the stop, so that the command reports it rather than a bare 'interrupted'."""

from __future__ import annotations

import signal
from typing import TYPE_CHECKING

from mtrain.conformance.identify.measure import Deals

if TYPE_CHECKING:
    from mtrain.conformance.identify.found import Identification, OptionFinding


class IdentifyInterrupted(KeyboardInterrupt):
    """An interrupt during identify, with what was found before it: `found`, the answer
    to the fixtures weighed by the last conclusion (None before the first), and
    `measured`, what the deals had measured when it came; `stage` the stage it stopped."""

    def __init__(self, cause: KeyboardInterrupt, stage: str, found: Identification | None,
                 measured: list[OptionFinding], played: str = "") -> None:
        super().__init__(str(cause))
        self.signum = getattr(cause, "signum", signal.SIGINT)
        self.stage = stage
        self.found = found
        self.measured = measured
        self.played = played  # how far the stage had gone, in words ("" when not told)

    @property
    def signal_name(self) -> str:
        return signal.Signals(self.signum).name


def measured_so_far(deals: Deals) -> list[OptionFinding]:
    """The deals' findings as far as they were measured (a table dealt in part too)."""
    from mtrain.conformance.identify.found import OptionFinding

    values = {"tile_set": deals.tile_set, "engine_procedure": deals.procedure,
              "starting_seat": deals.seat, "hand_sizes": "as dealt"}
    out = [OptionFinding(o, values.get(o) or "?", "measured", 0, [why])
           for o, why in deals.evidence.items()]
    if deals.table and "hand_sizes" not in deals.evidence:  # stopped within the table
        shown = ", ".join(f"{n}p: {h}" for n, h in sorted(deals.table.items()))
        out.append(OptionFinding("hand_sizes", "?", "measured in part", 0,
                                 [f"dealt {shown}, before the stop"]))
    return out
