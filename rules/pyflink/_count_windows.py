"""Count windows of a keyed frame -> a row number per key over the source order (issue 14).

PyFlink's ``count_window(size[, slide])`` (``CountTumblingWindowAssigner`` /
``CountSlidingWindowAssigner``, pyflink/datastream/window.py) numbers a key's records as they
arrive (0, 1, 2...): window ``i`` holds records ``i * slide .. i * slide + size - 1`` (tumbling:
``slide = size``) and fires once, when it is full (``CountTrigger(size)``); a window still short
of ``size`` records at the end of the input never fires. A key's arrival order is the source
order when the records reach ``key_by`` from ``from_collection`` through 1:1 operators in one
subtask each (``_rolling._steps_from_source`` and the job's parallelism), so the frame numbers
them with ``F.row_number()`` over ``monotonically_increasing_id()`` (``createDataFrame`` keeps
the list's order across partitions), gives each record its window ids and groups by
(key, window id), keeping the full windows. Anything else (several subtasks before
``key_by``, a slide larger than the size, an unbounded source, BATCH mode, a timestamped
stream) keeps the shim's windows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from flink2spark.rules.pyflink._common import call_arg, followed

SEQ = "seq"  # the source order column (monotonically_increasing_id)
WINDOW_ID = "window"  # the window id column


@dataclass(frozen=True)
class CountPlan:
    """``count_window(size, slide)``: window ``i`` holds a key's records ``i*slide .. i*slide+size-1``."""

    size: int
    slide: int

    def numbered(self, frame: str, key: str) -> str:
        """``frame`` with the window id column: one row per (record, window) it falls in."""
        index = f"F.row_number().over(Window.partitionBy({key!r}).orderBy({SEQ!r})) - 1"
        numbered = f"{frame}.withColumn({SEQ!r}, F.monotonically_increasing_id())"
        if self.slide == self.size:
            return f"{numbered}.withColumn({WINDOW_ID!r}, F.floor(({index}) / {self.size}))"
        ids = f"F.explode(F.sequence(F.greatest(F.lit(0), F.ceil((F.col('n') - {self.size - 1}) / {self.slide})), F.floor(F.col('n') / {self.slide})))"
        return f"{numbered}.withColumn('n', {index}).withColumn({WINDOW_ID!r}, {ids})"

    def full(self) -> str:
        """The condition on a group's ``F.count`` column ``records``: the window has fired."""
        return f"F.col('records') == {self.size}"


def count_plan(g, window: cst.Call) -> Optional[CountPlan]:
    """The plan of ``key_by(k).count_window(size[, slide])`` over a frame whose records reach
    the ``key_by`` in the source order, or None (the shim's count windows)."""
    from flink2spark.rules.pyflink import _frames, _rolling

    if g.runtime_mode != "streaming":
        return None  # BATCH mode sorts a key's records before the window: not known to keep their order
    size, slide = _literal(g, call_arg(window, 0, "size")), _literal(g, call_arg(window, 1, "slide"))
    if size is None or size <= 0 or call_arg(window, 1, "slide") is not None and (slide is None or slide < 0 or slide > size):
        return None
    key_by = _frames.key_by_of(g, window.func.value)  # type: ignore[attr-defined]
    steps = _rolling._steps_from_source(g, key_by) if key_by is not None else None
    if steps is None:
        return None
    known, parallelism = g.parallelism
    if steps & _rolling._REBALANCING and (not (known and parallelism == 1) or "set_parallelism" in steps):
        return None  # several subtasks before key_by: Flink's order of a key's records is not the source order
    return CountPlan(size, slide or size)


def _literal(g, node) -> Optional[int]:
    node = followed(g.resolver, node) if node is not None else None
    return int(node.value) if isinstance(node, cst.Integer) else None
