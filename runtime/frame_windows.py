"""A PyFlink window function run per (key, window) by ``applyInPandas`` (issue 14).

The converted program groups a DataFrame by the key and the window's bounds
(``groupBy("key", <start>, <end>)`` in epoch ms, from ``F.window``) and hands each group to
``per_window(function, ...)``: the user's ``ProcessWindowFunction.process(key, context,
elements)`` (or ``WindowFunction.apply(key, window, elements)``) gets the window's elements as
Flink hands them to Python (tuples for ``Types.TUPLE``, ``Row``s for ``Types.ROW``, the value
for a basic type, or the one result of an ``aggregate``/``reduce`` before it) and a context whose
``window()`` has Flink's ``start``, ``end`` and ``max_timestamp()``. Nothing else of Flink's
window operator is emulated: the windows themselves are Spark's.
"""

from __future__ import annotations

import functools
import time

MAX_WATERMARK = 2**63 - 1  # Long.MAX_VALUE: Flink's watermark when a bounded input's windows fire


class TimeWindow:
    """Flink's ``TimeWindow``: ``[start, end)`` in epoch milliseconds."""

    __slots__ = ("start", "end")

    def __init__(self, start: int, end: int):
        self.start, self.end = start, end

    def max_timestamp(self) -> int:
        return self.end - 1

    def __repr__(self):
        return f"TimeWindow(start={self.start}, end={self.end})"


class CountWindow:
    """PyFlink's ``CountWindow`` of ``count_window``: the window's ``id`` (a key's records
    ``id * slide ..`` in arrival order); it has no end in time."""

    __slots__ = ("id",)

    def __init__(self, id: int):
        self.id = id

    def max_timestamp(self) -> int:
        return MAX_WATERMARK

    def __repr__(self):
        return f"CountWindow(id={self.id})"


class _Context:
    __slots__ = ("_window",)

    def __class_getitem__(cls, item):  # ProcessWindowFunction.Context[TimeWindow] in annotations
        return cls

    def __init__(self, window: TimeWindow):
        self._window = window

    def window(self) -> TimeWindow:
        return self._window

    def current_watermark(self) -> int:
        return MAX_WATERMARK

    def current_processing_time(self) -> int:
        return int(time.time() * 1000)


class AggregateFunction:
    """Base of a user ``AggregateFunction`` run per window (its methods are the user's)."""


class ProcessWindowFunction:
    """Base of a user ``ProcessWindowFunction``; ``ProcessWindowFunction.Context`` names the
    context it gets, for annotations."""

    Context = _Context

    def __class_getitem__(cls, item):  # ProcessWindowFunction[IN, OUT, KEY, W] as a base or annotation
        return cls


class Reduced:
    """A PyFlink windowed ``reduce(f[, window_function])`` as one window function: the elements
    reduced in order (``f`` a function or a ``ReduceFunction`` object), then the window function
    on the one result."""

    def __init__(self, reduce_function, window_function=None):
        self.reduce_function, self.window_function = reduce_function, window_function

    def process(self, key, context, elements):
        step = getattr(self.reduce_function, "reduce", self.reduce_function)
        result = functools.reduce(step, elements)
        return _then(self.window_function, key, context, result)


_NO_KEY = object()  # the key of a window_all window: its functions take none


def _then(window_function, key, context, result):
    """The results of a window function given the one result of an aggregate or a reduce."""
    if window_function is None:
        return [result]
    if key is _NO_KEY:
        if hasattr(window_function, "process"):
            return window_function.process(context, [result])
        return window_function.apply(context.window(), [result])
    if hasattr(window_function, "process"):
        return window_function.process(key, context, [result])
    return window_function.apply(key, context.window(), [result])


class Aggregated:
    """A PyFlink ``aggregate(AggregateFunction[, window_function])`` as one window function:
    ``create_accumulator``, ``add`` per element in order, ``get_result``, then the window
    function on that one result (``merge`` is never needed: a window's elements are all here)."""

    def __init__(self, aggregate, window_function=None):
        self.aggregate, self.window_function = aggregate, window_function

    def process(self, key, context, elements):
        accumulator = self.aggregate.create_accumulator()
        for element in elements:
            accumulator = self.aggregate.add(element, accumulator)
        return _then(self.window_function, key, context, self.aggregate.get_result(accumulator))


def per_window(function, method: str, fields: list[str], kind: str, output: list[str], order: str | None = None,
               keyed: bool = True, count: int | None = None):
    """The ``applyInPandas`` function of a window function object.

    ``method``: "process" (``process(key, context, elements)``) or "apply" (``apply(key,
    window, elements)``). ``fields``: the element's columns; ``kind``: "tuple", "row" or "value"
    (how Flink hands an element to Python); ``output``: the result columns (each result is a
    tuple or Row of them, in order); ``order``: the column the elements are sorted by;
    ``keyed`` False: a ``window_all`` function (``process(context, elements)``, ``apply(window,
    elements)``), grouped by the window's bounds only; ``count``: a count window of that size,
    grouped by (key, window id): a window with fewer records has not fired (no results)."""

    def run(key, pdf):
        import pandas as pd

        if order is not None:
            pdf = pdf.sort_values(order, kind="stable")
        columns = [pdf[f].tolist() for f in fields]
        if kind == "value":
            elements = columns[0]
        elif kind == "row":
            from pyspark.sql import Row

            elements = [Row(**dict(zip(fields, values))) for values in zip(*columns)]
        else:
            elements = list(zip(*columns))
        if count is not None:
            if len(pdf) != count:
                return pd.DataFrame.from_records([], columns=output)
            window, key = CountWindow(int(key[-1])), (key[0], None, None)
        else:
            window = TimeWindow(int(key[-2]), int(key[-1]))
        if isinstance(function, (Reduced, Aggregated)):
            results = function.process(key[0] if keyed else _NO_KEY, _Context(window), elements)
        elif method == "process":
            results = function.process(*key[:-2], _Context(window), elements)
        else:
            results = function.apply(*key[:-2], window, elements)
        rows = [r if isinstance(r, tuple) else (r,) for r in (results or ())]
        return pd.DataFrame.from_records(rows, columns=output)

    return run
