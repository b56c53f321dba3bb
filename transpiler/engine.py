"""Entry points of the engine: convert one file's source."""

from __future__ import annotations

import sys
import threading

import black
import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor
from libcst.metadata import MetadataWrapper, PositionProvider

from flink2spark.transpiler import imports as I
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import source as S
from flink2spark.transpiler.convert import SHIM_ALIAS, SHIM_MODULE, Converter
from flink2spark.transpiler.result import ConversionResult, Marker

CONVERTED_GENERATIONS = {"dataset", "pyflink"}
UNSUPPORTED = {
    "jython": (M.JYTHON_UNSUPPORTED, "Jython streaming API (Flink 1.4-1.8): not converted yet; port this job by hand"),
    "pyflink": (M.PYFLINK_UNSUPPORTED, "modern PyFlink API: not converted yet; port this job by hand"),
}


# Deeply nested code (long call chains, nested literals, long sums) is walked recursively by
# libcst and the rules: the conversion runs in a thread with a large stack and a high
# recursion limit, so the depth CPython itself accepts is within reach.
DEEP_STACK_BYTES = 1 << 30  # reserved address space; only the pages used are committed
DEEP_RECURSION_LIMIT = 200_000
_deep_lock = threading.Lock()


def run_deep(fn, *args):
    """``fn(*args)`` in a thread whose stack and recursion limit fit deeply nested programs."""
    outcome: dict = {}

    def target() -> None:
        try:
            outcome["value"] = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            outcome["error"] = exc

    with _deep_lock:  # the recursion limit is the interpreter's, not the thread's
        limit = sys.getrecursionlimit()
        size = threading.stack_size(DEEP_STACK_BYTES)
        try:
            sys.setrecursionlimit(max(limit, DEEP_RECURSION_LIMIT))
            worker = threading.Thread(target=target, name="flink2spark-convert")
            worker.start()
            worker.join()
        finally:
            threading.stack_size(size)
            sys.setrecursionlimit(limit)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def convert_bytes(data: bytes, path: str = "<string>") -> ConversionResult:
    """Convert a file's raw bytes; bad input gives status "error" and no output."""
    try:
        text = S.decode(data)
    except S.BadInput as bad:
        return ConversionResult(path, "", None, status="error", markers=[bad.marker])
    return convert_source(text, path)


def convert_source(source: str, path: str = "<string>") -> ConversionResult:
    """Convert one file's source text. Never raises for bad input: see ``ConversionResult``.

    A file that cannot be Flink code (no Flink import text) is decided without parsing.
    """
    if not S.may_be_flink(source):
        return ConversionResult(path, source, source, generation=None, status="unchanged")
    return run_deep(_convert_source, source, path)


def _convert_source(source: str, path: str) -> ConversionResult:
    try:
        module = S.parse(source)
    except S.BadInput as bad:
        return ConversionResult(path, source, None, status="error", markers=[bad.marker])
    generation = S.detect_generation(module)
    if generation is None:
        return ConversionResult(path, source, source, generation=None, status="unchanged")
    if generation not in CONVERTED_GENERATIONS:
        return _mark_only(module, source, path, generation)
    result = _convert(module, source, path, generation, frozenset())
    if result is None:  # a rewrite produced invalid code: keep the file, say so
        result = _mark_only(module, source, path, generation, invalid=True)
    return result


def _positions(module: cst.Module, nodes) -> dict[int, tuple[int, int]]:
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    pos = wrapper.resolve(PositionProvider)
    return {id(n): (pos[n].start.line, pos[n].start.column + 1) for n in nodes if n in pos}


def _mark_only(module: cst.Module, source: str, path: str, generation: str, invalid: bool = False) -> ConversionResult:
    if invalid:
        code, message = M.INVALID_OUTPUT, "automatic conversion failed (a rewrite produced invalid code); port this file by hand"
    else:
        code, message = UNSUPPORTED[generation]
    new, found = I.mark_leftover_imports(module, code, message)
    where = _positions(module, [n for n, _, _ in found])
    markers = [Marker(*where.get(id(n), (1, 1)), c, "todo", msg) for n, c, msg in found]
    return ConversionResult(path, source, new.code, generation=generation, status="partial", markers=markers)


def _convert(module: cst.Module, source: str, path: str, generation: str, disabled: frozenset[str]):
    context = CodemodContext()
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    conv = Converter(generation, context, disabled, path)
    converted = wrapper.visit(conv)
    if I.uses_name(converted, SHIM_ALIAS):
        AddImportsVisitor.add_needed_import(context, SHIM_MODULE, conv.shim_name, SHIM_ALIAS)
    converted = I.finish_imports(converted, context)
    converted, leftovers = I.mark_leftover_imports(
        converted, conv.codes["flink_name"], exports=getattr(conv.model, "EXPORTS", None), table_code=conv.codes.get("table_stream"),
        table_params=conv.table_params,
    )
    markers = list(conv.markers)
    where = _positions(module, [n for n, _, _ in leftovers])
    for node, code, msg in leftovers:
        markers.append(Marker(*where.get(id(node), (1, 1)), code, "todo", msg))
    code = converted.code
    try:
        code = black.format_str(code, mode=black.Mode())
        cst.parse_module(code)
        compile(code, path, "exec")
    except Exception:  # noqa: BLE001 - any failure here means we must not write the output
        return None
    markers.sort(key=lambda mk: (mk.line, mk.col, mk.code))
    status = "partial" if any(mk.severity == "todo" for mk in markers) else "converted"
    return ConversionResult(path, source, code, generation=generation, status=status, markers=markers, rules_applied=conv.applied)
