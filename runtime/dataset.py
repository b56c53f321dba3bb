"""Runtime shim for programs converted from the legacy Flink DataSet Python API.

Converted programs import these helpers for the Flink behaviour that PySpark
has no native equivalent for.  The module depends only on the standard
library at import time; ``pyspark`` (and the py4j gateway it ships with) is
imported lazily inside the functions that need a SparkContext, so the module
can be imported by the converter itself and is cheap to import on executors
(ship it with ``spark-submit --py-files``).

Public API
----------
``FlinkIterator(iterable)``
    Flink's group/partition iterator (``next()``, ``has_next()``, iteration).
``RuntimeContext(broadcast_variables=None)``
    ``self.context`` of a user function (broadcast sets, subtask index).
``with_broadcast_sets(function, sets)``
    ``with_broadcast_set(name, data_set)`` on an operator.

Constants from ``flink.plan.Constants`` (the converter rewrites leftover references to them)
----------------------------------------------------------------------------------------------
``WriteMode`` (``NO_OVERWRITE`` = 0, ``OVERWRITE`` = 1; also module-level ``NO_OVERWRITE`` /
``OVERWRITE``), ``Order`` (``NONE``, ``ASCENDING``, ``DESCENDING``, ``ANY``). The ``read_csv``
field types become Spark DDL type names in the converted program (``INT`` -> ``"BIGINT"``).
"""

import collections
import collections.abc

__all__ = [
    "NO_OVERWRITE",
    "OVERWRITE",
    "WriteMode",
    "Order",
    "FlinkIterator",
    "RuntimeContext",
    "with_broadcast_sets",
]

#: ``flink.plan.Constants.WriteMode.NO_OVERWRITE``
NO_OVERWRITE = 0
#: ``flink.plan.Constants.WriteMode.OVERWRITE``
OVERWRITE = 1


class WriteMode(object):
    """Flink's ``flink.plan.Constants.WriteMode``: the ``write_mode`` of the file sinks."""

    NO_OVERWRITE = NO_OVERWRITE
    OVERWRITE = OVERWRITE


class Order(object):
    """Flink's ``flink.plan.Constants.Order`` (``sort_group`` directions), same values."""

    NONE = 0
    ASCENDING = 1
    DESCENDING = 2
    ANY = 3


# --------------------------------------------------------------------------------------------
# Iterator
# --------------------------------------------------------------------------------------------

_NOTHING = object()


class FlinkIterator(collections.abc.Iterator):
    """Flink's iterator over a group or partition, wrapping any iterable (single pass).

    Stands for ``flink.connection.Iterator`` (``Iterator``, ``GroupIterator``,
    ``ListIterator``), the object passed to ``reduce_group``, ``map_partition`` and
    ``co_group`` functions.  User code calls ``iterator.next()`` and ``iterator.has_next()``
    (Python 2 style), which Spark's ``ResultIterable`` and partition iterators do not have.
    ``has_next()`` looks one element ahead; ``next()`` past the end raises ``StopIteration``
    like Flink's.
    """

    def __init__(self, iterable=()):
        self._source = iter(iterable)
        self._peeked = _NOTHING
        self._exhausted = False

    def has_next(self):
        """True if another element is available (fetches it into the look-ahead slot)."""
        if self._peeked is not _NOTHING:
            return True
        if self._exhausted:
            return False
        try:
            self._peeked = next(self._source)
        except StopIteration:
            self._exhausted = True
            return False
        return True

    def next(self):
        """The next element; raises ``StopIteration`` when there is none."""
        if self._peeked is not _NOTHING:
            value, self._peeked = self._peeked, _NOTHING
            return value
        if self._exhausted:
            raise StopIteration
        try:
            return next(self._source)
        except StopIteration:
            self._exhausted = True
            raise

    def __next__(self):
        return self.next()

    def __iter__(self):
        return self


# --------------------------------------------------------------------------------------------
# Runtime context and broadcast sets
# --------------------------------------------------------------------------------------------


class RuntimeContext(object):
    """``self.context`` of a converted user function.

    Stands for ``flink.functions.RuntimeContext.RuntimeContext``.  In Flink every Python
    function object gets a context whose ``get_broadcast_variable(name)`` returns a
    ``collections.deque`` with all elements of the data set registered with
    ``with_broadcast_set(name, ds)``, and ``get_index_of_this_subtask()`` the index of the
    parallel instance.  Spark functions have no context object: broadcast variables are
    explicit ``Broadcast`` handles and the partition id comes from ``TaskContext``.

    ``broadcast_variables`` maps names to ``pyspark.Broadcast`` objects (read lazily with
    ``.value`` where the function runs, i.e. on executors) or to plain sequences.  The deque
    is built once per deserialised context (once per Spark task, like Flink's once per task)
    and the same object is returned by later calls.
    """

    def __init__(self, broadcast_variables=None):
        self._broadcast_variables = dict(broadcast_variables or {})
        self._deques = {}

    def _add_broadcast_variable(self, name, var):
        self._broadcast_variables[name] = var
        self._deques.pop(name, None)

    def get_broadcast_variable(self, name):
        """A ``collections.deque`` of the elements of the broadcast set ``name``."""
        if name not in self._deques:
            var = self._broadcast_variables[name]  # KeyError for unknown names, as in Flink
            try:
                from pyspark.broadcast import Broadcast
            except ImportError:  # pragma: no cover
                Broadcast = ()
            data = var.value if isinstance(var, Broadcast) else var
            self._deques[name] = collections.deque(data)
        return self._deques[name]

    def get_index_of_this_subtask(self):
        """The Spark partition id of the running task (0 on the driver)."""
        try:
            from pyspark import TaskContext
        except ImportError:  # pragma: no cover
            return 0
        context = TaskContext.get()
        return 0 if context is None else context.partitionId()

    def __getstate__(self):
        # Ship only the broadcast handles, never deques materialised on the driver.
        return {"_broadcast_variables": self._broadcast_variables}

    def __setstate__(self, state):
        self._broadcast_variables = state["_broadcast_variables"]
        self._deques = {}


def with_broadcast_sets(function, sets):
    """Attach broadcast sets to a user function object and return it.

    Stands for Flink's ``operator.with_broadcast_set(name, data_set)`` (possibly chained),
    which makes ``data_set`` readable inside the operator's function through
    ``self.context.get_broadcast_variable(name)``.  Spark has no per-operator broadcast
    inputs: each RDD in ``sets`` (name -> RDD) is collected (an action, in input order) and
    broadcast with ``SparkContext.broadcast``; ``function.context`` becomes a
    :class:`RuntimeContext` holding the handles, which pickles into the task closure and
    reads ``.value`` lazily on the executors.  Calling this again on the same object adds
    the new sets to the same context.  Values that are not RDDs are stored as plain lists.
    """
    context = getattr(function, "context", None)
    if not isinstance(context, RuntimeContext):
        context = RuntimeContext()
    for name, data in dict(sets).items():
        if hasattr(data, "collect") and hasattr(data, "context"):
            value = data.context.broadcast(data.collect())
        else:
            value = list(data)
        context._add_broadcast_variable(name, value)
    function.context = context
    return function
