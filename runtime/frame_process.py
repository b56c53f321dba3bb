"""A PyFlink ``ProcessFunction`` with side outputs over a DataFrame (issue 14).

Spark has no side outputs. The converted program runs the user's function once over the
records (``tagged``: a Python UDTF, one ``process_element`` call per row, as Flink calls it per
record) and keeps what it yields in one tagged DataFrame, cached: a column ``output`` (None for
the main output, the tag's name for a side output) and one struct column per output. The main
output and each side output are then that frame filtered by ``output`` (``main_output``,
``side_output``). Nothing of Flink's operator is emulated: ``ctx`` is not given to the function
(the conversion takes only functions that do not read it).
"""

from __future__ import annotations


class OutputTag:
    """Flink's ``OutputTag``: a side output's name (its records' schema is the conversion's)."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self):
        return f"OutputTag({self.name!r})"


class ProcessFunction:
    """Base of a user ``ProcessFunction`` whose ``process_element`` runs per record here;
    ``ProcessFunction.Context`` names the context it would get, for annotations."""

    class Context:
        pass


class CoMapFunction:
    """Base of a user ``CoMapFunction`` whose ``map1``/``map2`` run over their input here."""


class CoFlatMapFunction:
    """Base of a user ``CoFlatMapFunction`` whose ``flat_map1``/``flat_map2`` run over their input here."""


_OUTPUT = "output"  # the tag column (None: the main output)
_MAIN = "main"  # the main output's struct column; a side output's is named as its tag


def tagged(frame, function, kind: str, main: str, sides: "dict[str, str] | None" = None, nullable: bool = True):
    """What ``function.process_element(record, None)`` yields for each row of ``frame``, one
    row each: ``output`` (None: the main output; else the tag's name), ``main`` (a struct of the
    DDL schema ``main``; ``nullable``: whether its fields may be None, as a ROW's) and one struct column per side output read, named as its tag (``sides``:
    tag name -> DDL schema). ``kind``: how a row reaches the function, as Flink hands the record
    to Python: ``"value"`` (the one column's value), ``"tuple"`` (a tuple of the columns),
    ``"row"`` (a ``Row`` of them). A schema ``"value <type>"`` is a bare value; others a
    tuple/Row. Results for a tag not in ``sides`` are dropped, as Flink drops a side output no
    one reads. A function with ``open(runtime_context)``/``close()`` has them called once per
    UDTF instance (a Spark task: Flink calls them once per parallel instance)."""
    from pyspark.sql import Row
    from pyspark.sql import functions as F
    from pyspark.sql.functions import udtf

    sides = dict(sides or {})
    names, fields = list(sides), list(frame.columns)
    bare = {None: _bare(main), **{n: _bare(s) for n, s in sides.items()}}
    columns = [f"{_OUTPUT} string", f"{_MAIN} struct<{_struct(main)}>"] + [f"`{n}` struct<{_struct(s)}>" for n, s in sides.items()]

    checks = {None: _checks(main, nullable), **{n: _checks(s, True) for n, s in sides.items()}}

    @udtf(returnType=", ".join(columns))
    class Outputs:
        def __init__(self):  # once per UDTF instance (a Spark task): Flink's open() of a parallel instance
            if hasattr(function, "open"):
                from pyspark import TaskContext

                from flink2spark.runtime.datastream import RuntimeContext

                task = TaskContext.get()
                function.open(RuntimeContext(task.partitionId(), task.attemptNumber(), "") if task else RuntimeContext())

        def eval(self, *values):
            record = values[0] if kind == "value" else tuple(values) if kind == "tuple" else Row(**dict(zip(fields, values)))
            for result in function.process_element(record, None) or ():
                tag = result[0].name if isinstance(result, tuple) and len(result) == 2 and isinstance(result[0], OutputTag) else None
                if tag is not None and tag not in sides:
                    continue
                value = result if tag is None else result[1]
                row = [tag, None] + [None] * len(names)
                row[1 if tag is None else 2 + names.index(tag)] = _stored(value, *checks[tag])
                yield tuple(row)

        def terminate(self):
            if hasattr(function, "close"):
                function.close()

    return frame.lateralJoin(Outputs(*[F.col(c).outer() for c in fields])).select(_OUTPUT, _MAIN, *[f"`{n}`" for n in names])


def _struct(schema: str) -> str:
    """A DDL schema "a int, b string" as struct fields "a: int, b: string"."""
    return ", ".join(": ".join(part.strip().split(None, 1)) for part in schema.split(","))


def _bare(schema: str) -> bool:
    return "," not in schema and schema.strip().split(None, 1)[0] == "value"


_INTS = {"tinyint": 7, "smallint": 15, "int": 31, "bigint": 63}  # bits of the magnitude


def _checks(schema: str, nullable: bool):
    """(bare value, nullable fields, the fields' types) of records of a DDL ``schema``."""
    return _bare(schema), nullable, [part.strip().split(None, 1)[1].strip().lower() for part in schema.split(",")]


def _stored(value, bare: bool, nullable: bool, types):
    """``value`` as Flink's serializer stores it in the output type, as a struct's fields: a
    ValueError where Flink fails the job (a None record, a None field of a TUPLE or basic type, an
    integer out of its type's range, a value of another type) where Spark would write NULL or cut
    the float (Spark's Arrow conversion fails on an integer out of range too); an int for a
    DOUBLE is its float, as Flink's ``DoubleCoder`` gives; a FLOAT the 32-bit value (``_float32``)."""
    if value is None:
        raise ValueError("a None record: Flink's serializer fails the job on it")
    fields = (value,) if bare else tuple(value)
    if len(fields) != len(types):
        raise ValueError(f"a record of {len(fields)} fields for {len(types)}: {value!r}")
    out = []
    for field, t in zip(fields, types):
        if field is None:
            if not nullable:
                raise ValueError(f"a None field in {value!r}: Flink's serializer fails the job on it")
        elif t in _INTS:
            if isinstance(field, bool) or not isinstance(field, int) or not -(1 << _INTS[t]) <= field < 1 << _INTS[t]:
                raise ValueError(f"{field!r} is no {t.upper()} (Flink's serializer fails the job on it)")
        elif t == "double" and isinstance(field, int) and not isinstance(field, bool):
            field = float(field)
        elif t == "float" and isinstance(field, (int, float)):
            field = _float32(float(field))
        elif not isinstance(field, {"double": float, "float": float, "string": str, "boolean": bool}.get(t, object)):
            raise ValueError(f"{field!r} is no {t.upper()} (Flink's serializer fails the job on it)")
        out.append(field)
    return tuple(out)


def _float32(x: float) -> float:
    """``x`` as Flink's FLOAT serializer gives it back: the 32-bit value, infinite past the
    32-bit range (Java's cast; an int or a bool is its float: measured on Flink 2.3)."""
    import math
    import struct

    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def main_output(outputs):
    """The main output of a ``tagged`` frame: its ``main`` struct's fields."""
    from pyspark.sql import functions as F

    return outputs.where(F.col(_OUTPUT).isNull()).select(f"{_MAIN}.*")


def side_output(outputs, tag: OutputTag):
    """The side output ``tag`` of a ``tagged`` frame: its struct's fields."""
    from pyspark.sql import functions as F

    return outputs.where(F.col(_OUTPUT) == tag.name).select(f"`{tag.name}`.*")


class _Function:
    """A ``map``/``flat_map``/``filter`` function as a process function: ``function`` (a
    callable, or an instance of a function class: its method ``method``) on each record; the
    instance's ``open``/``close``, if any, around them."""

    def __init__(self, function, method: str):
        self.function, self.method = function, method
        for name in ("open", "close"):
            if hasattr(function, name):
                setattr(self, name, getattr(function, name))

    def process_element(self, value, ctx):
        call = self.function if callable(self.function) else getattr(self.function, self.method)
        if self.method == "filter":
            if call(value):
                yield value
        elif self.method == "flat_map":
            yield from call(value) or ()
        else:
            yield call(value)


class _Chain:
    """Functions run one after the other on each record (``_Function``s): what each gives goes
    to the next as it is, as Flink hands a Python object on between chained Python operators;
    ``open``/``close`` of each function class, in order."""

    def __init__(self, steps):
        self.steps = steps

    def open(self, runtime_context):
        for step in self.steps:
            if hasattr(step, "open"):
                step.open(runtime_context)

    def close(self):
        for step in self.steps:
            if hasattr(step, "close"):
                step.close()

    def process_element(self, value, ctx):
        values = [value]
        for step in self.steps:
            values = [out for v in values for out in step.process_element(v, ctx)]
        return values


class Pickled:
    """The records of ``map``/``flat_map``/``filter`` functions with no output type: PyFlink
    pickles the Python objects they make, which have no Spark type, so they are no DataFrame.
    This holds the frame they come from, how its rows reach the first function (``kind``, as in
    ``tagged``) and the functions, to run in the Python UDTF of the first function that gives
    its results a type (``python_udtf``) or of a print (``as_text``)."""

    __slots__ = ("frame", "kind", "steps")

    def __init__(self, frame, kind: str, steps: tuple):
        self.frame, self.kind, self.steps = frame, kind, steps


def pickled(frame, method: str, function, kind: "str | None" = None) -> Pickled:
    """``frame.map/flat_map/filter(function)`` (``method``) whose results have no output type:
    the function, to run later (``Pickled``); ``frame`` a DataFrame whose rows reach it as
    ``kind`` says, or the ``Pickled`` records of earlier functions."""
    if isinstance(frame, Pickled):
        return Pickled(frame.frame, frame.kind, frame.steps + ((method, function),))
    return Pickled(frame, kind, ((method, function),))


def python_udtf(frame, method: str, function, kind: str, schema: str, rows: bool = False):
    """``frame.map/flat_map/filter(function)`` (``method``) with the user's Python function: a
    Python UDTF calling it once per row (``tagged``), ``kind``: how a row reaches it, as Flink
    hands the record to Python (``"value"``, ``"tuple"``, ``"row"``; ``"pickled"``: ``frame`` is
    ``Pickled``, whose functions run first, in the same UDTF); ``schema``: the DDL schema
    of the results (a filter's: the frame's own), ``rows``: whether they are ROWs (fields may be
    None; a TUPLE's or a basic value may not: Flink fails the job, so does this)."""
    if kind == "pickled":
        if not isinstance(frame, Pickled):
            raise TypeError(f"kind 'pickled' needs the Pickled records of f2s_process.pickled(), not {type(frame).__name__}")
        steps = [_Function(f, m) for m, f in frame.steps] + [_Function(function, method)]
        return main_output(tagged(frame.frame, _Chain(steps), frame.kind, schema, nullable=rows))
    return main_output(tagged(frame, _Function(function, method), kind, schema, nullable=rows))


def _text(value):
    """PyFlink's print of pickled records: ``str()`` of each, a str (or bytes) as it is."""
    if not isinstance(value, (str, bytes)):
        value = str(value)
    return value


def as_text(records: Pickled):
    """What PyFlink's ``print()`` prints of ``Pickled`` records (it maps each to ``str()`` of it,
    ``DataStream._align_output_type``): a frame of one ``value`` string column."""
    return python_udtf(records, "map", _text, "pickled", "value STRING")


class _Input:
    """One input of a ``CoMapFunction``/``CoFlatMapFunction`` as a process function: its
    ``map1``/``flat_map1`` (or ``...2``) on each record."""

    def __init__(self, function, method: str):
        self.function, self.method = function, method

    def process_element(self, value, ctx):
        result = getattr(self.function, self.method)(value)
        if self.method.startswith("flat_map"):
            yield from result or ()
        else:
            yield result


def connected(first, second, function, method: str, kinds: "tuple[str, str]", schema: str):
    """``first.connect(second).map/flat_map(function)`` (``method``): ``map1``/``flat_map1`` over
    ``first``, ``map2``/``flat_map2`` over ``second`` (``kinds``: how their rows reach the
    function, as in ``tagged``), the results, of the DDL ``schema``, unioned. Each input gets its own
    copy of ``function``: the conversion takes only functions whose two methods share no data."""
    results = [main_output(tagged(frame, _Input(function, f"{method}{i}"), kind, schema))
               for i, (frame, kind) in enumerate(zip((first, second), kinds), 1)]
    return results[0].unionByName(results[1])
