"""A non-keyed ``process(ProcessFunction)`` over a DataFrame, side outputs included (issue 14)
(not a rule: the program model's entries for ``process`` and ``get_side_output``, read by the
rules ``process`` and ``side_output``).

Spark has no side outputs (``/work/shared/reference/flink-spark-semantics.md`` C.1, E.9). The
function runs once over the records, a Python UDTF calling ``process_element(record, None)``
per row as Flink calls it per record (``runtime/frame_process.py``), into one tagged frame,
cached; the main output and each side output are that frame filtered by its tag::

    valid_outputs = f2s_process.tagged(lines, Validate(), "value", "f0 STRING, ...", {"invalid": "value STRING"}).cache()
    valid = f2s_process.main_output(valid_outputs)
    invalid = f2s_process.side_output(valid_outputs, INVALID)

Taken only when that gives Flink's records whatever the partitioning: the class is a module
``ProcessFunction`` with ``process_element`` alone (no ``open``/``close``/``__init__``, no
data kept in the instance, no timer), whose ``ctx`` is never read (timestamps, the timer service,
``ctx.output``); it yields main results, or ``TAG, value`` with ``TAG`` a module name bound once
to ``OutputTag("name", <basic type/ROW/TUPLE>)``; the output type is declared. Each record's
results depend on that record alone, so Spark's partitions change only their order, which a
parallel Flink job does not fix either.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

import libcst as cst

from flink2spark.rules.pyflink._process import keeps_data
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.python_columns import Shape
from flink2spark.transpiler.visitors import is_method_call, is_self_attribute, nodes

_TAG_NAMES_TAKEN = ("output", "main")  # the tagged frame's own columns (runtime/frame_process.py)


@dataclass(frozen=True)
class SidePlan:
    cls: cst.ClassDef  # the user's ProcessFunction class (original)
    output: object  # python_columns.Shape of the main output
    tags: tuple[tuple[str, str, object], ...]  # (module name of the tag, tag name, Shape) of the side outputs read
    outputs_name: Optional[str]  # the tagged frame's variable (None: no side output is read)
    one: bool = False  # the function keeps data in its instance: one partition, in order (parallelism 1)


def schema(shape) -> str:
    """The DDL schema ``runtime/frame_process.py`` takes for records of ``shape``: a basic value's
    is ``"value <TYPE>"`` (the frame's column, a bare value in Python)."""
    from flink2spark.rules.pyflink._frames import ddl

    return f"value {shape.fields[0].type.upper()}" if shape.kind == "value" else ddl(shape)


def output_tag(resolver, expr: Optional[cst.BaseExpression]) -> Optional[tuple[str, cst.Call]]:
    """(tag name, the ``OutputTag(...)`` call) of a module name bound once to a PyFlink
    ``OutputTag`` with a literal name; else None."""
    if not isinstance(expr, cst.Name):
        return None
    value = resolver.single_value(expr)
    if not isinstance(value, cst.Call) or resolver.qualified_name(value.func) not in P.OUTPUT_TAGS or not value.args:
        return None
    name = value.args[0].value
    if value.args[0].keyword not in (None,) and value.args[0].keyword.value != "tag_id" or not isinstance(name, cst.SimpleString):
        return None
    return name.evaluated_value, value  # type: ignore[return-value]


def _tag_shape(resolver, call: cst.Call):
    from flink2spark.rules.pyflink._common import call_arg, record_shape
    from flink2spark.rules.pyflink._frames import FRAME_TYPES

    info = call_arg(call, 1, "type_info")
    shape = record_shape(resolver, info) if info is not None else None
    return shape if shape is not None and all(f.type in FRAME_TYPES for f in shape.fields) else None


def side_plan(g, call: cst.Call, shape) -> Union[SidePlan, str]:
    """The tagged-frame form of the non-keyed ``process`` ``call`` over a frame of ``shape``,
    once per call; else why there is none (the stream stays an RDD)."""
    return g.fact("side_plan", call, _side_plan, "not computed", shape)


def _side_plan(g, call: cst.Call, shape) -> Union[SidePlan, str]:
    from flink2spark.rules.pyflink._common import call_arg, record_shape
    from flink2spark.rules.pyflink._frames import FRAME_TYPES

    resolver = g.resolver
    if resolver.type_of(call.func.value) != P.DATASTREAM or shape.kind not in ("value", "tuple", "row"):  # type: ignore[attr-defined]
        return "not a DataStream of a frame"
    found = _function_class(g, call, "ProcessFunction", ("process_element",), 3)
    if isinstance(found, str):
        return found
    cls, (fdef,), one = found
    if one and not in_source_order(g, call.func.value):  # type: ignore[attr-defined]
        return "instance data over records that do not come in a collection's order"
    params = fdef.params.params
    if any(n.value == params[2].name.value for n in nodes(fdef.body, cst.Name)):
        return "process_element reads its context (timestamps, timers, ctx.output)"
    info = call_arg(call, 1, "output_type")
    output = record_shape(resolver, info) if info is not None else None
    if output is None or any(f.type not in FRAME_TYPES for f in output.fields):
        return "no output_type of basic types (the results' schema)"
    yielded = {}
    for y in nodes(fdef.body, cst.Yield):
        value = y.value
        if isinstance(value, cst.Tuple) and len(value.elements) == 2 and output_tag(resolver, value.elements[0].value) is not None:
            yielded[value.elements[0].value.value] = output_tag(resolver, value.elements[0].value)  # type: ignore[attr-defined]
        elif isinstance(value, cst.From):
            return "yield from"
    for n in nodes(fdef.body, cst.Name):  # a tag used other than as the first of a yielded pair
        if output_tag(resolver, n) is not None and n.value not in yielded:
            return f"{n.value}: an output tag used other than in `yield {n.value}, value`"
    found = read_tags(g, call)
    if isinstance(found, str):
        return found
    tags, outputs_name = found
    return SidePlan(cls, output, tuple(tags), outputs_name, one)


def read_tags(g, call: cst.Call) -> Union[tuple[list, Optional[str]], str]:
    """The side outputs of the process ``call`` its results are read by (``get_side_output(TAG)``):
    [(module name of the tag, tag name, Shape)] and the tagged frame's variable (None when none is
    read); else why they cannot be a tagged frame's."""
    from flink2spark.rules.pyflink._common import call_arg
    from flink2spark.rules.pyflink._streams import _frame_uses

    resolver = g.resolver
    uses_of = _frame_uses(g, call)
    if uses_of is None:
        return "the uses of the results cannot be followed"
    tags, read = [], [u for u in uses_of if u.func.attr.value == "get_side_output"]  # type: ignore[attr-defined]
    for use in read:
        found = output_tag(resolver, call_arg(use, 0, "output_tag"))
        tag_shape = _tag_shape(resolver, found[1]) if found is not None else None
        if found is None or tag_shape is None or found[0] in _TAG_NAMES_TAKEN or "`" in found[0]:
            return "get_side_output of a tag that is not a module OutputTag(name, basic type/ROW/TUPLE)"
        module_name = call_arg(use, 0, "output_tag").value  # type: ignore[union-attr]
        if all(t[1] != found[0] for t in tags):
            tags.append((module_name, found[0], tag_shape))
        elif any(t[1] == found[0] and t[0] != module_name for t in tags):
            return "two tags of one name"
    outputs_name = None
    if read:
        parent = resolver.parent(call)
        if not (isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name)):
            return "a process() read by get_side_output that is not assigned to a name"
        outputs_name = parent.targets[0].target.value + "_outputs"
        if any(n.value == outputs_name for n in nodes(resolver.module, cst.Name)):
            return f"the module uses the name {outputs_name}"
    return tags, outputs_name


# operators after which a frame's rows keep the order of the stream's records (one partition
# at parallelism 1: Flink's order); settings of scheduling only
_IN_ORDER = frozenset({"map", "filter", "flat_map", "name", "uid", "set_parallelism", "set_description", "set_max_parallelism",
                       "disable_chaining", "start_new_chain", "slot_sharing_group", "set_buffer_timeout", "forward", "rebalance",
                       "rescale", "shuffle"})


def in_source_order(g, stream: cst.BaseExpression) -> bool:
    """Whether the rows of the frame ``stream`` come, in one partition (``coalesce(1)``), in the
    order Flink's records reach a function at parallelism 1: a ``from_collection`` through
    ``map``/``filter``/``flat_map`` and scheduling settings only (a keyed aggregation, a union, a
    file source... give Spark's own order)."""
    from flink2spark.rules.pyflink._common import followed

    node = followed(g.resolver, stream)
    for _ in range(50):
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)):
            return False
        if g.resolver.type_of(node.func.value) == P.ENVIRONMENT:
            return node.func.attr.value == "from_collection"
        if node.func.attr.value not in _IN_ORDER or g.resolver.type_of(node.func.value) != P.DATASTREAM:
            return False
        node = followed(g.resolver, node.func.value)
    return False


def _function_class(g, call: cst.Call, base: str, methods: tuple[str, ...], arity: int):
    """(class, its ``methods``' defs, whether it keeps data in its instance) of the function
    argument of ``call``: an instance of a module class deriving directly from PyFlink's
    ``base``, used once, with ``methods`` (``arity`` parameters, self included) and at most an
    ``__init__(self)``; instance data only at parallelism 1 (one instance sees the stream in
    order: the frame is coalesced to one partition). Else why not."""
    from flink2spark.rules.pyflink._common import call_arg, instance_class

    resolver = g.resolver
    cls = instance_class(resolver, call_arg(call, 0, "func"))
    if cls is None or not any(s is cls for s in resolver.module.body):
        return "the function is not an instance of a class of the module's top level"
    if [resolver.qualified_name(b.value) for b in cls.bases] not in ([f"pyflink.datastream.{base}"], [f"pyflink.datastream.functions.{base}"]):
        return f"not a direct {base} subclass"
    defs = {s.name.value: s for s in cls.body.body if isinstance(s, cst.FunctionDef)}
    others = [s for s in cls.body.body if not isinstance(s, cst.FunctionDef)
              and not (isinstance(s, cst.SimpleStatementLine) and all(isinstance(x, cst.Expr) and isinstance(x.value, cst.SimpleString) for x in s.body))]
    if others or set(defs) - {"__init__"} != set(methods) or "__init__" in defs and len(defs["__init__"].params.params) != 1:
        return f"a class with methods other than {', '.join(methods)} (and __init__(self))"
    for fdef in defs.values():
        p = fdef.params
        if not isinstance(p.star_arg, cst.MaybeSentinel) or p.kwonly_params or p.star_kwarg or p.posonly_params \
                or fdef.name.value != "__init__" and len(p.params) != arity or any(x.default is not None for x in p.params):
            return f"{fdef.name.value}: parameters other than Flink's"
        if any(isinstance(y.value, cst.From) for y in nodes(fdef.body, cst.Yield)):
            return "yield from"
    uses = [n for n in nodes(resolver.module, cst.Name) if n.value == cls.name.value and n is not cls.name]
    if len(uses) != 1:
        return f"{cls.name.value} is used {len(uses)} times"
    one = keeps_data(cls)
    if one and g.parallelism != (True, 1):
        return "data kept in the instance at a parallelism other than 1 (Flink's instances see parts of the stream)"
    return cls, tuple(defs[m] for m in methods), one


def processed_shape(g, call: cst.Call, shape):
    """NATIVE_CONSUMERS: a non-keyed ``process`` over a frame: the main output's shape, or None."""
    found = side_plan(g, call, shape)
    return found.output if isinstance(found, SidePlan) else None


def side_shape(g, call: cst.Call, shape):
    """NATIVE_CONSUMERS: ``get_side_output(TAG)`` of such a process: the tag's records' shape."""
    from flink2spark.rules.pyflink._common import call_arg, followed

    source = followed(g.resolver, call.func.value)  # type: ignore[attr-defined]
    if not (isinstance(source, cst.Call) and isinstance(source.func, cst.Attribute) and source.func.attr.value == "process"):
        return None
    from flink2spark.rules.pyflink._streams import _frame_shape

    if g.resolver.type_of(source.func.value) == P.CONNECTED:  # a KeyedCoProcessFunction as a StatefulProcessor
        from flink2spark.rules.pyflink._stateful import TwoInputPlan, two_input_plan

        found = two_input_plan(g, source)
        found = found if isinstance(found, TwoInputPlan) else None
    else:
        upstream = g.fact("frame_shape", source.func.value, _frame_shape, None)
        found = side_plan(g, source, upstream) if upstream is not None else None
        found = found if isinstance(found, SidePlan) else None
    tag = output_tag(g.resolver, call_arg(call, 0, "output_tag"))
    if found is None or tag is None:
        return None
    return next((s for _, name, s in found.tags if name == tag[0]), None)


# --------------------------------------------------------------------------------------------
# connect(other).map/flat_map(CoMapFunction / CoFlatMapFunction) of two frames


@dataclass(frozen=True)
class CoPlan:
    cls: cst.ClassDef  # the user's CoMapFunction / CoFlatMapFunction class (original)
    output: object  # python_columns.Shape of the results
    kinds: tuple[str, str]  # how each input's rows reach map1/map2 (Shape.kind)
    one: bool  # instance data: each input in one partition, in order (parallelism 1)


_CO_METHODS = {"map": ("CoMapFunction", ("map1", "map2")), "flat_map": ("CoFlatMapFunction", ("flat_map1", "flat_map2"))}


def co_plan(g, call: cst.Call) -> Union[CoPlan, str]:
    """The frame form of ``a.connect(b).map/flat_map(F(), output_type=T)`` (``call``), once per
    call; else why there is none."""
    return g.fact("co_plan", call, _co_plan, "not computed")


def _co_plan(g, call: cst.Call) -> Union[CoPlan, str]:
    """Each input through its own method of the user's class, the results unioned: Flink's
    records when no method reads what the other writes (``self.x`` of one method only, set in
    ``__init__``): then one instance for both gives what one per input gives, whatever order
    Flink interleaves the inputs in. Instance data needs parallelism 1 (``_function_class``)."""
    from flink2spark.rules.pyflink._common import call_arg, record_shape
    from flink2spark.rules.pyflink._frames import FRAME_TYPES
    from flink2spark.rules.pyflink._streams import _frame_shape, _frame_uses

    resolver = g.resolver
    connect = call.func.value  # type: ignore[attr-defined]
    method = call.func.attr.value  # type: ignore[attr-defined]
    if method not in _CO_METHODS or not (isinstance(connect, cst.Call) and isinstance(connect.func, cst.Attribute)
                                         and connect.func.attr.value == "connect" and len(connect.args) == 1):
        return "not a.connect(b).map/flat_map(...)"
    inputs = [connect.func.value, connect.args[0].value]
    if any(resolver.type_of(i) != P.DATASTREAM for i in inputs) or _frame_uses(g, connect) != [call]:
        return "a connect() of streams other than two DataStreams, or read other than by one map/flat_map"
    shapes = [g.fact("frame_shape", i, _frame_shape, None) for i in inputs]
    if any(s is None or s.kind not in ("value", "tuple", "row") for s in shapes):
        return "an input that is not a frame"
    base, methods = _CO_METHODS[method]
    found = _function_class(g, call, base, methods, 2)
    if isinstance(found, str):
        return found
    cls, defs, one = found
    touched = [{n.attr.value for n in nodes(d.body, cst.Attribute) if isinstance(n.value, cst.Name) and n.value.value == "self"} for d in defs]
    if touched[0] & touched[1]:
        return f"{cls.name.value}: map1 and map2 share self.{sorted(touched[0] & touched[1])[0]} (Flink's interleaving of the inputs would show)"
    if one and not all(in_source_order(g, i) for i in inputs):
        return "instance data over records that do not come in a collection's order"
    info = call_arg(call, 1, "output_type")
    output = record_shape(resolver, info) if info is not None else None
    if output is None or any(f.type not in FRAME_TYPES for f in output.fields):
        return "no output_type of basic types (the results' schema)"
    return CoPlan(cls, output, (shapes[0].kind, shapes[1].kind), one)


def connected_shape(g, call: cst.Call, shape):
    """NATIVE_CONSUMERS: ``a.connect(b)`` of two frames read by one planned ``map``/``flat_map``:
    that function's results' shape (the connected streams themselves are no frame)."""
    from flink2spark.rules.pyflink._streams import _frame_uses

    uses = _frame_uses(g, call)
    if not uses or len(uses) != 1:
        return None
    found = co_plan(g, uses[0])
    return found.output if isinstance(found, CoPlan) else None


def co_shape(g, call: cst.Call, shape):
    """NATIVE_CONSUMERS: ``map``/``flat_map`` of such connected streams: its results' shape."""
    if g.resolver.type_of(call.func.value) != P.CONNECTED:  # type: ignore[attr-defined]
        return None
    found = co_plan(g, call)
    return found.output if isinstance(found, CoPlan) else None


# --------------------------------------------------------------------------------------------
# map / flat_map / filter of a Python function that has no Column form, over a frame


# The records of a map/flat_map with no output_type whose function has no Column form: Python
# objects Flink pickles, with no Spark type, so no DataFrame yet. The converted program holds
# the frame and the functions still to run (``f2s_process.pickled``: runtime/frame_process.py);
# the next map/flat_map with an output_type runs them all in its Python UDTF (``python_udtf``:
# the objects go from one function to the next as they are, as in Flink's chained operators,
# and only the typed results are stored), a print shows ``str()`` of each as PyFlink's print
# does (``f2s_process.as_text``). Only map/flat_map/filter, print and operator settings read
# such records here; anything else (key_by, union, sinks...) keeps the stream an RDD.
UNTYPED = Shape("untyped", ())
UNTYPED_READERS = frozenset({"map", "flat_map", "filter", "print", "name", "uid", "set_parallelism", "set_description",
                             "set_max_parallelism", "disable_chaining", "start_new_chain", "slot_sharing_group",
                             "set_buffer_timeout", "forward", "rebalance", "rescale", "shuffle"})


def untyped_consumer(g, call: cst.Call, shape):
    """What ``call`` makes of ``UNTYPED`` records (the program model's ``consumer_shape``): a
    map/flat_map/filter whose function runs in the UDTF (``function_plan``), a print (a sink),
    an operator setting (the records go on); else None."""
    from flink2spark.rules.pyflink._frames import sink

    method = call.func.attr.value  # type: ignore[attr-defined]
    if method not in UNTYPED_READERS or not P.is_stream(g.resolver.type_of(call.func.value)):  # type: ignore[attr-defined]
        return None
    if method == "print":
        return sink(g, call, shape)
    if method in _METHODS:
        return function_shape(g, call, shape)
    return shape


@dataclass(frozen=True)
class FunctionPlan:
    output: object  # python_columns.Shape of the results (a filter's: its input's)
    cls: Optional[cst.ClassDef]  # a function class with open()/close(): its instance is passed, they run per task
    one: bool  # the class keeps data between records: one partition, in the source's order (parallelism 1)


_METHODS = {"map": "MapFunction", "flat_map": "FlatMapFunction", "filter": "FilterFunction"}
# methods that change a list, dict or set in place: data kept between records when called on
# something the function does not make itself
_MUTATORS = frozenset({"append", "extend", "insert", "add", "update", "pop", "popitem", "remove", "discard", "clear",
                       "setdefault", "sort", "reverse", "appendleft", "popleft", "extendleft"})


def function_plan(g, call: cst.Call, shape) -> Union[FunctionPlan, str]:
    """The Python-UDTF form of ``map``/``flat_map``/``filter`` (``call``) over a frame of
    ``shape`` whose function has no Column form (``runtime/frame_process.python_udtf``), once per
    call; else why there is none."""
    return g.fact("function_plan", call, _function_plan, "not computed", shape)


def _function_plan(g, call: cst.Call, shape) -> Union[FunctionPlan, str]:
    """The user's function gets each record as Flink hands it to Python and its results are
    stored as Flink's serializer stores them in the declared type (the shim fails where Flink's
    fails), so the records are Flink's when each record's results depend on that record alone:
    a lambda or a def of the module that keeps nothing between calls (no ``global``, no change
    in place of what it does not make), or an instance of a module ``MapFunction``/
    ``FlatMapFunction``/``FilterFunction`` (``open``/``close``: once per Spark task, Flink's per
    parallel instance; their results are the same unless they have side effects: NOTE F2S203)
    without keyed state. A class that keeps data between records (``self.x = ...`` or a change
    in place of ``self.x`` outside ``__init__``/``open``/``close``) needs the records in one
    partition in the source's order at parallelism 1, as Flink's one instance sees them. Spark's
    partitions change only the records' order, which a parallel Flink job does not fix either.
    With no ``output_type`` the results are ``UNTYPED`` (the functions run later, in the UDTF of
    the next typed function or a print); over ``UNTYPED`` records the function gets the objects
    the one before made."""
    from flink2spark.rules.pyflink._common import call_arg, instance_class
    from flink2spark.rules.pyflink._frames import _declared

    resolver = g.resolver
    method = call.func.attr.value  # type: ignore[attr-defined]
    if method not in _METHODS or not P.is_stream(resolver.type_of(call.func.value)) or shape.kind not in ("value", "tuple", "row", UNTYPED.kind):  # type: ignore[attr-defined]
        return "not a map/flat_map/filter of a DataStream of a frame"
    if g.node(call.func.value).micro_batches:  # type: ignore[attr-defined]
        return "an unbounded stream (the UDTF form is checked on bounded frames only)"
    if any(a.star for a in call.args):
        return "star arguments"
    from flink2spark.rules.pyflink._event_windows import carries_stamp

    if carries_stamp(g, call):
        return "a frame with a timestamp column"
    fn = call_arg(call, 0, "func")
    cls, one, body, code = None, False, None, None
    if isinstance(fn, cst.Lambda):
        body = fn
    elif isinstance(fn, cst.Name) and isinstance(resolver.local_def(fn), cst.FunctionDef):
        body = resolver.local_def(fn)
    else:
        cls = instance_class(resolver, fn)
        if cls is None or not any(s is cls for s in resolver.module.body):
            return "a function that is not a lambda, a def or an instance of a function class of the module"
        if [resolver.qualified_name(b.value) for b in cls.bases] not in ([f"pyflink.datastream.{_METHODS[method]}"],
                                                                         [f"pyflink.datastream.functions.{_METHODS[method]}"]):
            return f"not a direct {_METHODS[method]} subclass"
        defs = {s.name.value: s for s in cls.body.body if isinstance(s, cst.FunctionDef)}
        code = defs.get(method)
        if method not in defs or len(defs[method].params.params) != 2:
            return f"{cls.name.value}: no {method}(self, value)"
        if any(is_method_call(c) and c.func.attr.value in P.STATE_METHODS for c in nodes(cls, cst.Call)):  # type: ignore[attr-defined]
            return f"{cls.name.value}: keyed state"
        one = any(_keeps(d) for name, d in defs.items() if name not in ("__init__", "open", "close"))
        if one and not (g.parallelism == (True, 1) and in_source_order(g, call.func.value)):  # type: ignore[attr-defined]
            return f"{cls.name.value} keeps data between records, which do not come in a collection's order at parallelism 1"
        if one and shape.kind == UNTYPED.kind:
            return f"{cls.name.value} keeps data between records of a function with no output_type"
        if not any(n in defs for n in ("open", "close")):
            cls = None  # its bound method is passed, as any function
    if body is not None and (_keeps(body) or any(nodes(body, cst.Global, cst.Nonlocal))):
        return "a function that keeps data between calls (global, or a change in place of what it does not make)"
    if method == "filter":
        return FunctionPlan(shape, cls, one)
    output = _declared(g, call, udtf=True)
    declared = call_arg(call, 1, "output_type")
    if output is None and declared is not None and not (isinstance(declared, cst.Name) and declared.value == "None"):
        return "an output_type other than a basic type or a ROW/TUPLE of them (the results' schema)"
    if output is not None and any(f.type == "float" for f in output.fields) and g.node(call).readers == 1 and not all(
            c.func.attr.value in _FLOAT_DECODERS for c in g.node(call).consumer_calls):  # type: ignore[attr-defined]
        return ("a FLOAT output_type read by one chained operator (Flink hands a chained Python function the object"
                " as it is, not the 32-bit value)")
    output = output or UNTYPED  # no output_type: Flink pickles the results
    code = body if body is not None else code
    if method == "map" and any(nodes(code, cst.Yield)):
        return "a map function that yields (Flink's serializer gets a generator)"
    if output.kind == "row" and (any(isinstance(r.value, cst.Tuple) for r in nodes(code, cst.Return, cst.Yield))
                                 or isinstance(code, cst.Lambda) and isinstance(code.body, cst.Tuple)):
        return "a ROW output_type of a function returning tuples (Flink's print of the records fails on them)"
    if output.kind == "row" and any(resolver.qualified_name(c.func) in P.ROWS and any(a.keyword is not None for a in c.args)
                                    for c in nodes(code, cst.Call)):
        return "a Row with named fields (Flink's serializer reads them by name)"
    return FunctionPlan(output, cls, one)


# the consumers that get FLOAT results through Flink's serializer (the 32-bit value a FLOAT
# column holds): a Java sink, a key_by or union (measured on Flink 2.3: a single chained
# Python map gets the object the function made, an int stays an int)
_FLOAT_DECODERS = frozenset({"print", "union", "key_by", "execute_and_collect", "sink_to", "add_sink"})


def _keeps(fdef) -> bool:
    """Whether a function body changes what it does not make: ``self.x = ...``, ``self.x[k] = ...``,
    ``self.x.append(...)``, ``NAME.append(...)``/``NAME[k] = ...`` of a name it does not assign."""
    own = set()
    for t in nodes(fdef, cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.AsName):
        target = t.name if isinstance(t, cst.AsName) else t.target
        for n in [target] + [e.value for e in getattr(target, "elements", ())]:
            if isinstance(n, cst.Name):
                own.add(n.value)
    if isinstance(fdef, (cst.FunctionDef, cst.Lambda)):
        own |= {p.name.value for p in fdef.params.params}

    def foreign(node) -> bool:
        while isinstance(node, (cst.Subscript, cst.Attribute)) and not is_self_attribute(node):
            node = node.value
        return is_self_attribute(node) or isinstance(node, cst.Name) and node.value not in own

    for t in nodes(fdef, cst.AssignTarget, cst.AugAssign, cst.AnnAssign):
        target = t.target
        if isinstance(target, (cst.Attribute, cst.Subscript)) and foreign(target):
            return True
    for c in nodes(fdef, cst.Call):
        if isinstance(c.func, cst.Attribute) and c.func.attr.value in _MUTATORS and foreign(c.func.value):
            return True
    return False


def function_shape(g, call: cst.Call, shape):
    """NATIVE_CONSUMERS: a map/flat_map/filter over a frame whose function has no Column form:
    its results' shape (``function_plan``), or None."""
    found = function_plan(g, call, shape)
    return found.output if isinstance(found, FunctionPlan) else None
