"""Row-format file sinks (``FileSink`` / ``StreamingFileSink``) read by ``sink_to``/``add_sink``
(not a rule: it defines no ``rule``).

``FileSink.for_row_format(base_path, Encoder.simple_string_encoder())`` with any of
``with_output_file_config(OutputFileConfig...)``, ``with_bucket_assigner(BucketAssigner...)``,
``with_rolling_policy(...)``, ``with_bucket_check_interval(...)``, ``enable_compact``/
``disable_compact`` and ``.build()`` becomes
``f2s_io.write_rows(stream, base_path, type_info, part_prefix=..., part_suffix=..., bucket=...)``
(``flink2spark.runtime.connectors``): Flink's folder layout and part-file names, each record as
Java's ``toString`` of its Flink type; a DataFrame's lines: ``df.write.mode("append").text(folder)``
(``write_frame``), Spark's part-file names. What differs is marked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import libcst as cst

from flink2spark.rules.pyflink._common import CONTAINER_TYPES, PICKLED, as_stream, call_arg, consumed_as, followed, type_expression, unsupported_reason, unsupported_types, visible_at
from flink2spark.rules.pyflink._streams import facts
from flink2spark.transpiler import imports as I
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P

IO_MODULE, IO_NAME, IO_ALIAS = "flink2spark.runtime", "connectors", "f2s_io"
IO_IMPORT = f"from {IO_MODULE} import {IO_NAME} as {IO_ALIAS}\n"
IO_AND_SHIM_IMPORT = f"from {IO_MODULE} import {IO_NAME} as {IO_ALIAS}, datastream as f2s\n"
# the head of a converted example program whose streams are all DataFrames (rule examples)
FRAME_HEAD = "from pyspark.sql import SparkSession\n\nenv = SparkSession.builder.getOrCreate()\n"

_FS = ("pyflink.datastream.connectors.file_system.", "pyflink.datastream.connectors.")
ROW_FORMAT = {f"{m}{c}.for_row_format": c for m in _FS for c in ("FileSink", "StreamingFileSink")}
BULK_FORMAT = {f"{m}{c}.for_bulk_format": c for m in _FS for c in ("FileSink", "StreamingFileSink")}
_COMMON = ("pyflink.common.", "pyflink.common.serialization.")
# Flink 1.12's ``SimpleStringEncoder(charset_name)`` became ``Encoder.simple_string_encoder(...)``:
# both write ``str(element)`` and a newline.
STRING_ENCODER = {f"{m}Encoder.simple_string_encoder" for m in _COMMON} | {"pyflink.common.serialization.SimpleStringEncoder"}
OUTPUT_FILE_CONFIG = {f"{m}OutputFileConfig" for m in _FS}
OUTPUT_FILE_CONFIG_BUILDER = {f"{m}OutputFileConfig.builder" for m in _FS}
BASE_PATH_BUCKETS = {f"{m}BucketAssigner.base_path_bucket_assigner" for m in _FS}
DATE_TIME_BUCKETS = {f"{m}BucketAssigner.date_time_bucket_assigner" for m in _FS}
SINK_BUILDERS = (P.FILE_SINK_BUILDER, P.STREAMING_FILE_SINK_BUILDER)


def io_module(ctx) -> cst.Name:
    """``f2s_io`` (adds ``from flink2spark.runtime import connectors as f2s_io``)."""
    I.need(ctx.conv.codemod, IO_MODULE, IO_NAME, IO_ALIAS)
    return cst.Name(IO_ALIAS)


@dataclass
class FileSinkSpec:
    """What a row-format file sink writes (original expressions)."""

    kind: str  # "FileSink" | "StreamingFileSink"
    base_path: cst.BaseExpression
    prefix: Optional[cst.BaseExpression] = None
    suffix: Optional[cst.BaseExpression] = None
    bucket: tuple = ("date_time", None, None)  # ("base",) | ("date_time", format, zone)
    moved: list = field(default_factory=list)  # expressions copied to the sink_to site


def _builder_calls(resolver, node: cst.BaseExpression):
    """(entry call, [(method, call), ...]) of ``Entry.for_row_format(...).m1(...).build()``."""
    node = followed(resolver, node)
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "build"):
        return None
    steps = []
    call: cst.BaseExpression = node
    for _ in range(50):
        if isinstance(call, cst.Name):  # builder = FileSink.for_row_format(...); builder.with_...()
            value = resolver.single_value(call)
            if value is None or _uses(resolver, call) != 1:  # builders are mutable: one chain only
                return None
            call = value
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)):
            return None
        q = resolver.qualified_name(call.func)
        if q in ROW_FORMAT or q in BULK_FORMAT:
            steps.reverse()
            return call, steps
        steps.append((call.func.attr.value, call))
        call = call.func.value
    return None


def _uses(resolver, name: cst.Name) -> int:
    refs = resolver.referents(name)
    return sum(len(a.references) for a in refs)


def is_file_sink(resolver, node: Optional[cst.BaseExpression]) -> bool:
    return node is not None and _builder_calls(resolver, node) is not None


def _literal(node: Optional[cst.BaseExpression]) -> Optional[str]:
    return node.evaluated_value if isinstance(node, cst.SimpleString) else None  # type: ignore[return-value]


def _output_file_config(resolver, spec: FileSinkSpec, node: cst.BaseExpression) -> Optional[str]:
    node = followed(resolver, node)
    if isinstance(node, cst.Call) and resolver.qualified_name(node.func) in OUTPUT_FILE_CONFIG:
        spec.prefix, spec.suffix = call_arg(node, 0, "part_prefix"), call_arg(node, 1, "part_suffix")
        return None if spec.prefix is not None and spec.suffix is not None else "OutputFileConfig(prefix, suffix) without both"
    call = node
    while isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute):
        method = call.func.attr.value
        if resolver.qualified_name(call.func) in OUTPUT_FILE_CONFIG_BUILDER:
            return None
        if method == "with_part_prefix" and spec.prefix is None:
            spec.prefix = call_arg(call, 0, "prefix")
        elif method == "with_part_suffix" and spec.suffix is None:
            spec.suffix = call_arg(call, 0, "suffix")
        elif method != "build":
            break
        call = call.func.value
    return "an output file config other than OutputFileConfig.builder()...build() written in place"


def _bucket_assigner(resolver, spec: FileSinkSpec, node: cst.BaseExpression) -> Optional[str]:
    node = followed(resolver, node)
    q = resolver.qualified_name(node.func) if isinstance(node, cst.Call) else None
    if q in BASE_PATH_BUCKETS:
        spec.bucket = ("base",)
        return None
    if q in DATE_TIME_BUCKETS:
        fmt, zone = call_arg(node, 0, "format_str"), call_arg(node, 1, "timezone_id")  # type: ignore[arg-type]
        if fmt is not None:
            from flink2spark.runtime.connectors import java_time_format

            text = _literal(fmt)
            try:
                if text is None:
                    raise ValueError
                java_time_format(text)
            except ValueError:
                return "date_time_bucket_assigner(format): only literal patterns of y, M, d, H, m, s fields are converted"
        spec.bucket = ("date_time", fmt, zone)
        return None
    return "a custom BucketAssigner: port its bucket folders by hand (DataFrame.write.partitionBy)"


def file_sink_spec(ctx, node: cst.BaseExpression) -> tuple[Optional[FileSinkSpec], Optional[str]]:
    """(spec, None) for a convertible row-format file sink, (None, why not) otherwise."""
    return sink_spec(ctx.resolver, node)


def sink_spec(resolver, node: cst.BaseExpression) -> tuple[Optional[FileSinkSpec], Optional[str]]:
    """``file_sink_spec`` from the resolver alone (the program model reads it)."""
    found = _builder_calls(resolver, node)
    if found is None:
        return None, None
    entry, steps = found
    q = resolver.qualified_name(entry.func)
    if q in BULK_FORMAT:
        return None, (
            f"{BULK_FORMAT[q]}.for_bulk_format (Parquet/Avro/ORC writers): write a DataFrame with"
            " DataFrame.write.parquet/orc/format('avro') by hand"
        )
    base, encoder = call_arg(entry, 0, "base_path"), call_arg(entry, 1, "encoder")
    if base is None or encoder is None or any(a.star for a in entry.args):
        return None, "for_row_format(base_path, encoder): both arguments are needed"
    enc = followed(resolver, encoder)
    if not (isinstance(enc, cst.Call) and resolver.qualified_name(enc.func) in STRING_ENCODER):
        return None, "an Encoder other than Encoder.simple_string_encoder(): port it by hand"
    charset = call_arg(enc, 0, "charset_name")
    if charset is not None and (_literal(charset) or "").upper().replace("-", "") != "UTF8":
        return None, "simple_string_encoder(charset): the converted sink writes UTF-8 only"
    spec = FileSinkSpec(ROW_FORMAT[q], base)
    for method, call in steps:
        arg = call_arg(call, 0)
        if method == "with_output_file_config" and arg is not None:
            problem = _output_file_config(resolver, spec, arg)
        elif method == "with_bucket_assigner" and arg is not None:
            problem = _bucket_assigner(resolver, spec, arg)
        elif method in ("with_rolling_policy", "with_bucket_check_interval", "enable_compact", "disable_compact", "build"):
            problem = None  # how records are split into files and when they are committed
        else:
            problem = f"{method}() of a file sink builder is not converted"
        if problem is not None:
            return None, problem
    spec.moved = [e for e in (base, spec.prefix, spec.suffix, *spec.bucket[1:]) if e is not None]
    return spec, None


def stream_type_problem(ctx, stream: cst.BaseExpression):
    """(type expression, None) of the sink's stream, or (None, why the records are not known)."""
    t = facts(ctx.resolver, stream).element_type
    if t is PICKLED:
        return None, (
            "a file sink of a stream without output_type: Flink writes the Java toString of the pickled bytes"
            " ([B@...), not the values; give the last operator output_type=Types.STRING()"
        )
    if t is None:
        return None, "the stream's type could not be followed: the file sink writes Java's toString of it"
    unsupported = unsupported_types(ctx.resolver, t, containers=False) if isinstance(t, cst.BaseExpression) else []
    if unsupported:  # arrays: Java's toString is their identity ([B@1b2c3d); maps: Java HashMap order
        if unsupported[0] in CONTAINER_TYPES:
            return None, f"a file sink of Types.{unsupported[0]}() values is not converted yet"
        return None, f"a file sink of Types.{unsupported[0]}() values: {unsupported_reason(unsupported[0])}"
    return t, None


def sink_argument(call: cst.Call) -> Optional[cst.BaseExpression]:
    """The sink of ``stream.sink_to(sink)`` / ``stream.add_sink(sink_func)`` (original call)."""
    method = call.func.attr.value  # type: ignore[attr-defined]
    return call_arg(call, 0, "sink" if method == "sink_to" else "sink_func")


def sink_problem(ctx, call: cst.Call, sink: Optional[cst.BaseExpression]) -> Optional[tuple[str, str]]:
    """(code, why) when ``stream.sink_to(sink)``/``add_sink(sink)`` (original) cannot be converted."""
    if sink is None:
        return M.PF_UNSUPPORTED, "no sink argument"
    spec, problem = file_sink_spec(ctx, sink)
    if spec is None:
        if problem is None and ctx.resolver.type_of(followed(ctx.resolver, sink)) in (P.FILE_SINK, P.STREAMING_FILE_SINK):
            return M.PF_FILE_UNSUPPORTED, (
                "a file sink whose builder is used in several statements (Flink's builders are mutable):"
                " write the builder chain as one expression"
            )
        if problem is None:
            from flink2spark.rules.pyflink._common import connector_hint

            hint = connector_hint(ctx.resolver, sink)
            if hint is not None:
                return M.PF_JAVA_CONNECTOR, hint
            return M.PF_JAVA_CONNECTOR, "a sink other than a row-format FileSink/StreamingFileSink: write the RDD/DataFrame with Spark by hand"
        return M.PF_FILE_UNSUPPORTED, problem
    wanted = "FileSink" if call.func.attr.value == "sink_to" else "StreamingFileSink"  # type: ignore[attr-defined]
    if spec.kind != wanted:
        return M.PF_FILE_UNSUPPORTED, f"a {spec.kind} given to {call.func.attr.value}(): Flink rejects it"  # type: ignore[attr-defined]
    if facts(ctx.resolver, call.func.value).micro_batches:  # type: ignore[attr-defined]
        return M.PF_FILE_UNSUPPORTED, (
            "a file sink on an unbounded stream: Flink's FileSink rolls part files and commits them at checkpoints;"
            " write each micro-batch by hand (f2s_stream.foreach_batch) or with writeStream.format('text')"
        )
    if call.func.attr.value == "sink_to" and ctx.resolver.type_of(call.func.value) == P.KEYED:  # type: ignore[attr-defined]
        return M.PF_FILE_UNSUPPORTED, (
            "sink_to() on a KeyedStream: Flink writes its internal rows (the pickled key and the element,"
            " '+I[[-128, 5, ...], (a,1)]'), not the elements; port it by hand"
        )
    if isinstance(sink, cst.Name) and consumed_by_sink(ctx, followed(ctx.resolver, sink)) is None:  # type: ignore[arg-type]
        return M.PF_FILE_UNSUPPORTED, "the sink object is used elsewhere too: convert it by hand"
    if not all(visible_at(ctx, e, call) for e in spec.moved):
        return M.PF_FILE_UNSUPPORTED, "the sink's arguments use names that mean something else here"
    _, problem = stream_type_problem(ctx, call.func.value)  # type: ignore[attr-defined]
    if problem is not None:
        return M.PF_FILE_UNSUPPORTED, problem
    return None


def frame_sink(g, call: cst.Call, shape) -> bool:
    """Whether ``stream.sink_to(FileSink...)``/``add_sink(StreamingFileSink...)`` of a frame of
    ``shape`` is written by ``DataFrameWriter.text`` (``write_frame``): a row-format
    file sink with the string encoder, which writes Java's ``toString`` of each record
    (``frame_lines``); a basic value or a tuple holding no None (Flink fails on it)."""
    if shape.kind != "row" and any(f.nullable for f in shape.fields):  # Flink fails on None there
        return False
    if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
        return False
    if not P.is_stream(g.resolver.type_of(call.func.value)) or g.resolver.type_of(call.func.value) == P.KEYED:  # type: ignore[attr-defined]
        return False
    spec, _ = sink_spec(g.resolver, call.args[0].value)
    wanted = "FileSink" if call.func.attr.value == "sink_to" else "StreamingFileSink"  # type: ignore[attr-defined]
    return spec is not None and spec.kind == wanted


def frame_lines(ctx, frame: cst.BaseExpression, shape) -> cst.BaseExpression:
    """The frame of the lines the string encoder writes: Java's ``toString`` of each record,
    built by ``F.format_string`` (Java's ``Formatter``: ``%s`` of a value is its ``toString``,
    ``Double.toString``'s ``1.0E-4`` and ``true`` included, ``null`` for None): a Row
    ``+I[a, 1, 2.5]`` (every record is an insert), a tuple ``(a,1)``, a value as it is; a
    string frame is written as it is."""
    from flink2spark.transpiler import imports as I

    if shape.kind == "value" and shape.fields[0].type == "string":
        return frame
    I.need(ctx.conv.codemod, "pyspark.sql", "functions", "F")
    pattern = {"row": "+I[%s]", "tuple": "(%s)", "value": "%s"}[shape.kind] % ("," if shape.kind == "tuple" else ", ").join(
        "%s" for _ in shape.fields)
    columns = ", ".join(f'"{f.name}"' for f in shape.fields)
    return ctx.expr('{df}.select(F.format_string("%s", %s).alias("value"))' % (pattern, columns), df=frame)


def write_rows(ctx, stream: cst.BaseExpression, original_stream: cst.BaseExpression, sink: cst.BaseExpression, site: cst.Call):
    """``f2s_io.write_rows(...)`` for a sink that ``sink_problem`` accepted; a frame
    (``frame_sink``: its column is the line): ``DataFrameWriter.text`` (``write_frame``)."""
    spec, _ = file_sink_spec(ctx, sink)
    assert spec is not None
    shape = facts(ctx.resolver, original_stream).frame
    if shape is not None:
        return write_frame(ctx, frame_lines(ctx, stream, shape), spec)
    io = io_module(ctx)
    t, _ = stream_type_problem(ctx, original_stream)
    _, type_info = type_expression(ctx, t, site)
    args = [cst.Arg(stream), cst.Arg(spec.base_path), cst.Arg(type_info)]
    if spec.prefix is not None:
        args.append(cst.Arg(spec.prefix, keyword=cst.Name("part_prefix")))
    if spec.suffix is not None:
        args.append(cst.Arg(spec.suffix, keyword=cst.Name("part_suffix")))
    if spec.bucket[0] == "date_time":
        args.append(cst.Arg(_time_bucket(ctx, spec), keyword=cst.Name("bucket")))
    if spec.kind == "StreamingFileSink":
        args.append(cst.Arg(cst.SimpleString('"subtask"'), keyword=cst.Name("part_names")))
        ctx.note(
            M.PF_PART_FILES,
            "StreamingFileSink: parts <prefix>-<n>-0<suffix>, one per non-empty Spark partition, written committed;"
            " Flink commits them only at checkpoints (a bounded job without checkpointing leaves them hidden,"
            " .<prefix>-0-0<suffix>.inprogress.<uuid>)",
        )
        return cst.Call(func=cst.Attribute(io, cst.Name("write_rows")), args=args)
    ctx.note(
        M.PF_PART_FILES,
        f"{spec.kind}: one part file per non-empty Spark partition; Flink's folders, part-file names"
        " and records, but not its rolling policy's split of records into files",
    )
    return cst.Call(func=cst.Attribute(io, cst.Name("write_rows")), args=args)


def _time_bucket(ctx, spec: FileSinkSpec) -> cst.Call:
    """``f2s_io.date_time_bucket(...)``: the folder of a date-time bucket assigner (NOTE F2S242)."""
    _, fmt, zone = spec.bucket
    bucket_args = [cst.Arg(e) for e in (fmt, zone) if e is not None]
    if fmt is None and zone is not None:
        bucket_args = [cst.Arg(zone, keyword=cst.Name("timezone_id"))]
    ctx.note(
        M.PF_TIME_BUCKET,
        "date-time buckets: every record goes to the bucket of the time the Spark job writes;"
        " Flink used each record's processing time (a job crossing the hour splits there)",
    )
    return cst.Call(func=cst.Attribute(io_module(ctx), cst.Name("date_time_bucket")), args=bucket_args)


_PATH_ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)


def write_frame(ctx, lines: cst.BaseExpression, spec: FileSinkSpec) -> cst.BaseExpression:
    """``lines.write.mode("append").text(folder)``: the lines of a row-format file sink (a
    frame of one string column, ``frame_lines``) in the sink's folder (``base/<bucket>`` for a
    date-time bucket assigner). The same records in the same folders as Flink's; the files are
    Spark's (``part-00000-<uuid>-c000.txt``, ``_SUCCESS``), not Flink's part-file names: a
    NOTE says so. ``append``: Flink adds its part files to a folder that exists."""
    path = spec.base_path
    if spec.bucket[0] == "date_time":
        if not isinstance(path, _PATH_ATOMS):
            path = path.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        path = ctx.expr('{base} + "/" + {bucket}', base=path, bucket=_time_bucket(ctx, spec))
    names = " (its OutputFileConfig's part prefix and suffix are not applied)" if spec.prefix is not None or spec.suffix is not None else ""
    spark_files = "in Spark's part files (part-00000-<uuid>-c000.txt, one per non-empty Spark partition, and _SUCCESS)"
    if spec.kind == "StreamingFileSink":
        ctx.note(
            M.PF_PART_FILES,
            f"StreamingFileSink: the same records in the same folders, {spark_files}, not Flink's part-file names"
            f" <prefix>-<subtask>-<counter><suffix>{names}, written committed; Flink commits them only at checkpoints"
            " (a bounded job without checkpointing leaves them hidden, .<prefix>-0-0<suffix>.inprogress.<uuid>)",
        )
    else:
        ctx.note(
            M.PF_PART_FILES,
            f"FileSink: the same records in the same folders, {spark_files}, not Flink's part-file names"
            f" <prefix>-<uuid>-<n><suffix>{names} nor its rolling policy's split of records into files",
        )
    return ctx.expr('{df}.write.mode("append").text({path})', df=lines, path=path)


def consumed_by_sink(ctx, call: cst.Call):
    """``(call or assignment, sink_to/add_sink call)`` when the sink built by ``call`` is the
    argument of ``stream.sink_to``/``add_sink`` directly or through a variable used only there."""
    return consumed_as(ctx, call, _is_sink_arg)


def _is_sink_arg(resolver, arg: cst.Arg) -> bool:
    call = resolver.parent(arg)
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value in ("sink_to", "add_sink")):
        return False
    if not P.is_stream(resolver.type_of(call.func.value)):
        return False
    return call.args[0] is arg


def convert_sink(ctx):
    """The converter of ``sink_to`` and ``add_sink``."""
    seg = ctx.site.head
    method = seg.method
    sink = sink_argument(seg.original)
    from flink2spark.rules.pyflink import _kafka

    if _kafka.is_kafka_sink(ctx.resolver, sink) and ctx.is_statement and facts(ctx.resolver, seg.original.func.value).frame is not None:
        converted = _kafka.convert_frame_sink(ctx, ctx.site.receiver, sink)  # a streaming DataFrame
        return ctx.todo_left() if converted is None else converted
    if _kafka.is_kafka_sink(ctx.resolver, sink) and ctx.is_statement:
        stream = _values(ctx, as_stream(ctx, ctx.site.receiver, ctx.site.receiver_type), seg.original.func.value)
        converted = _kafka.convert_sink(ctx, stream, seg.original.func.value, sink)
        return ctx.todo_left() if converted is None else converted
    problem = sink_problem(ctx, seg.original, sink)
    if problem is not None:
        return ctx.todo(*problem)
    if not ctx.is_statement:
        return ctx.todo(M.PF_UNSUPPORTED, f"the DataStreamSink that {method}() returns is used: Spark's write returns nothing")
    stream = _values(ctx, as_stream(ctx, ctx.site.receiver, ctx.site.receiver_type), seg.original.func.value)
    return write_rows(ctx, stream, seg.original.func.value, sink, seg.original)


def _values(ctx, stream: cst.BaseExpression, original_stream: cst.BaseExpression) -> cst.BaseExpression:
    """The records of a stream whose records carry timestamps (``(timestamp, value)`` pairs,
    see ``_time``) are the values: sinks write those, as Flink's do."""
    if facts(ctx.resolver, original_stream).timestamped and facts(ctx.resolver, original_stream).frame is None:
        return ctx.expr("{s}.values()", s=stream)
    return stream
