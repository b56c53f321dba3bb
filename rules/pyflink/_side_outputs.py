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

from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.visitors import nodes

_TAG_NAMES_TAKEN = ("output", "main")  # the tagged frame's own columns (runtime/frame_process.py)


@dataclass(frozen=True)
class SidePlan:
    cls: cst.ClassDef  # the user's ProcessFunction class (original)
    output: object  # python_columns.Shape of the main output
    tags: tuple[tuple[str, str, object], ...]  # (module name of the tag, tag name, Shape) of the side outputs read
    outputs_name: Optional[str]  # the tagged frame's variable (None: no side output is read)


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
    from flink2spark.rules.pyflink._common import call_arg, instance_class, record_shape
    from flink2spark.rules.pyflink._frames import FRAME_TYPES
    from flink2spark.rules.pyflink._process import keeps_data
    from flink2spark.rules.pyflink._streams import _frame_uses

    resolver = g.resolver
    if resolver.type_of(call.func.value) != P.DATASTREAM or shape.kind not in ("value", "tuple", "row"):  # type: ignore[attr-defined]
        return "not a DataStream of a frame"
    cls = instance_class(resolver, call_arg(call, 0, "func"))
    if cls is None or not any(s is cls for s in resolver.module.body):
        return "the function is not an instance of a class of the module's top level"
    if [resolver.qualified_name(b.value) for b in cls.bases] not in (["pyflink.datastream.ProcessFunction"], ["pyflink.datastream.functions.ProcessFunction"]):
        return "not a direct ProcessFunction subclass"
    methods = [s for s in cls.body.body if not (isinstance(s, cst.SimpleStatementLine) and all(isinstance(x, cst.Expr) and isinstance(x.value, cst.SimpleString) for x in s.body))]
    if len(methods) != 1 or not isinstance(methods[0], cst.FunctionDef) or methods[0].name.value != "process_element" or keeps_data(cls):
        return "a class with more than process_element, or data kept in the instance"
    fdef = methods[0]
    params = fdef.params.params
    if len(params) != 3 or fdef.params.star_arg is not cst.MaybeSentinel.DEFAULT or fdef.params.kwonly_params or fdef.params.star_kwarg:
        return "process_element(self, value, ctx) expected"
    if any(n.value == params[2].name.value for n in nodes(fdef.body, cst.Name)):
        return "process_element reads its context (timestamps, timers, ctx.output)"
    uses = [n for n in nodes(resolver.module, cst.Name) if n.value == cls.name.value and n is not cls.name]
    if len(uses) != 1:
        return f"{cls.name.value} is used {len(uses)} times"
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
    return SidePlan(cls, output, tuple(tags), outputs_name)


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

    upstream = g.fact("frame_shape", source.func.value, _frame_shape, None)
    found = side_plan(g, source, upstream) if upstream is not None else None
    tag = output_tag(g.resolver, call_arg(call, 0, "output_tag"))
    if not isinstance(found, SidePlan) or tag is None:
        return None
    return next((s for _, name, s in found.tags if name == tag[0]), None)
