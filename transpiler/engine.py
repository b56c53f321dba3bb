"""Entry points of the engine: convert one file's source."""

from __future__ import annotations

import contextvars
import os
import queue
import re
import sys
import threading
from typing import Optional

import libcst as cst

from flink2spark.transpiler import elide as E
from flink2spark.transpiler import formatting as FMT
from flink2spark.transpiler import guards as G
from flink2spark.transpiler import imports as I
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import positions as P
from flink2spark.transpiler import source as S
from flink2spark.transpiler.convert import SHIM_ALIAS, SHIM_MODULE, Converter
from flink2spark.transpiler.models import MODELS
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


class _DeepThread:
    """The thread conversions run in, one job at a time: started once per process (a thread
    started for each file cost about a tenth of the conversion of the fixtures), and again in
    a forked child (a fork has only the thread that forked)."""

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        size = threading.stack_size(DEEP_STACK_BYTES)
        try:
            self.thread = threading.Thread(target=self._serve, name="flink2spark-convert", daemon=True)
            self.thread.start()
        finally:
            threading.stack_size(size)

    def _serve(self) -> None:
        while True:
            context, fn, args, outcome, done = self.jobs.get()
            try:
                outcome["value"] = context.run(fn, *args)
            except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
                outcome["error"] = exc
            finally:
                done.set()


_deep: Optional[_DeepThread] = None


def _forget_deep_thread() -> None:
    global _deep
    _deep = None


os.register_at_fork(after_in_child=_forget_deep_thread)


def run_deep(fn, *args):
    """``fn(*args)`` in a thread whose stack and recursion limit fit deeply nested programs."""
    global _deep
    if _deep is not None and threading.current_thread() is _deep.thread:
        return fn(*args)
    outcome: dict = {}
    done = threading.Event()
    with _deep_lock:  # the recursion limit is the interpreter's, not the thread's
        if _deep is None:
            _deep = _DeepThread()
        limit = sys.getrecursionlimit()
        try:
            sys.setrecursionlimit(max(limit, DEEP_RECURSION_LIMIT))
            # the caller's context variables (a new thread starts with an empty context)
            _deep.jobs.put((contextvars.copy_context(), fn, args, outcome, done))
            done.wait()
        finally:
            sys.setrecursionlimit(limit)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def convert_bytes(
    data: bytes, path: str = "<string>", shadowed: frozenset = frozenset(), disabled: frozenset = frozenset()
) -> ConversionResult:
    """Convert a file's raw bytes; bad input gives status "error" and no output."""
    try:
        text = S.decode(data)
    except S.BadInput as bad:
        return ConversionResult(path, "", None, status="error", markers=[bad.marker])
    return convert_source(text, path, shadowed, disabled)


def convert_source(
    source: str, path: str = "<string>", shadowed: frozenset = frozenset(), disabled: frozenset = frozenset()
) -> ConversionResult:
    """Convert one file's source text. Never raises for bad input: see ``ConversionResult``.

    A file that cannot be Flink code (no Flink import text) is decided without parsing.
    ``shadowed``: top-level module names the converted tree defines itself (its own ``flink``
    package): their imports are not Flink's. ``disabled``: rule ids not to apply (``--ignore``):
    their constructs are left as they are, with a TODO marker.
    """
    if not S.may_be_flink(source):
        return ConversionResult(path, source, source, generation=None, status="unchanged")
    token, text = S.SHADOWED.set(frozenset(shadowed)), S.SOURCE.set(source)
    try:
        return run_deep(_convert_source, source, path, frozenset(disabled))
    finally:
        S.SHADOWED.reset(token)
        S.SOURCE.reset(text)


def _convert_source(source: str, path: str, disabled: frozenset = frozenset()) -> ConversionResult:
    """Statements that cannot touch Flink are set aside first (transpiler/elide.py); if putting
    them back fails, the whole module is converted."""
    try:
        tree = S.check_compiles(source)
    except S.BadInput as bad:
        return ConversionResult(path, source, None, status="error", markers=[bad.marker])
    generation = S.detect_generation(tree)
    if generation is None:  # no Flink import: decided without libcst
        return ConversionResult(path, source, source, generation=None, status="unchanged")
    # a chain of more calls than the limit has more parentheses (no walk for a file with fewer)
    chains = S.long_chains(tree) if source.count("(") > S.LONG_CHAIN_CALLS else []
    if chains:
        message = "a chain of {} calls is too long to convert: split it into steps (ds = ...; ds = ds.map(...)) and convert again"
        return _left_as_is(source, path, generation, [(line, M.LONG_CHAIN, message.format(calls)) for line, calls in chains])
    model = MODELS.get(generation)  # (Jython has none: it is marked, not converted)
    reduced = E.elide(source, tree, model.DISTINCTIVE_METHODS if model is not None else frozenset())
    if reduced is not None:
        result = _convert_module(reduced.text, path, disabled, generation)
        restored = reduced.restore(result.output) if result.output is not None else None
        if restored is not None:
            result.source, result.output = source, restored
            return result
    return _convert_module(source, path, disabled, generation)


def _convert_module(source: str, path: str, disabled: frozenset, generation: str) -> ConversionResult:
    """Convert a module CPython compiled (or what remains of one once statements were set aside)."""
    try:
        module = S.parse(source, compiled=True)
    except S.BadInput as bad:
        return ConversionResult(path, source, None, status="error", markers=[bad.marker])
    mocks = G.mock_lines(source)
    if mocks:  # a test of Flink code: it stays as it is
        message = "this module replaces Flink modules in sys.modules (a test of Flink code): port the test by hand"
        return _left_as_is(source, path, generation, [(line, M.MOCKED_FLINK, message) for line in mocks])
    if G.only_a_feature_flag(G.find(module), lambda: I.used_names(module)):
        return ConversionResult(path, source, source, generation=None, status="unchanged")
    if generation not in CONVERTED_GENERATIONS:
        return _mark_only(module, source, path, generation)
    result = _convert(module, source, path, generation, disabled)
    if result is None:  # a rewrite produced invalid code: keep the file, say so
        result = _mark_only(module, source, path, generation, invalid=True)
    return result


def _left_as_is(source: str, path: str, generation: str, found: list[tuple[int, str, str]]) -> ConversionResult:
    """``source`` with a TODO above each (line, code, message) of ``found``; nothing else changes."""
    out = source.splitlines(keepends=True)
    for line, code, message in sorted(found, reverse=True):
        text = f"# TODO(flink2spark): {code} {message}"
        current = out[line - 1]
        indent = current[: len(current) - len(current.lstrip())]
        newline = "\r\n" if current.endswith("\r\n") else "\n"
        if line < 2 or out[line - 2].strip() != text:
            out.insert(line - 1, indent + text + newline)
    markers = [Marker(line, 1, code, "todo", message) for line, code, message in sorted(found)]
    return ConversionResult(path, source, "".join(out), generation=generation, status="partial", markers=markers)


# the engine's own placeholders (table option markers, template parts, elided statements): one in
# an output that its input does not hold is a rewrite that lost a value, never a program to write
_PLACEHOLDER = re.compile(r"__f2s_(?:t?\d+__|part_|elided_)")
_STATEMENTS = (cst.SimpleStatementLine, cst.BaseCompoundStatement)  # what a leftover import's TODO stands above


def _positions(module: cst.Module, nodes, found: dict[int, tuple[int, int]] | None = None) -> dict[int, tuple[int, int]]:
    """(line, column) of each of ``nodes`` in ``module``, by id (``found``: the starts of nodes
    of ``module`` that ``positions.starts`` found already, these ones among them)."""
    found = dict(found if found is not None else P.starts(module, nodes)[0])
    missing = [n for n in nodes if id(n) not in found]
    if missing:
        # A statement rebuilt by the conversion (an import inside a try or an if block, the
        # statement holding ``if x: import y``): the input statement with the same code, in order.
        lines, statements = P.starts(module, (), _STATEMENTS)
        by_code: dict[str, list[tuple[int, int]]] = {}
        for node in statements:
            by_code.setdefault(module.code_for_node(node.with_changes(leading_lines=())), []).append(lines[id(node)])
        for node in missing:
            if isinstance(node, _STATEMENTS):
                places = by_code.get(module.code_for_node(node.with_changes(leading_lines=())))
                if places:
                    found[id(node)] = places.pop(0)
    return found


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
    context = I.Requests()
    conv = Converter(generation, context, disabled, path)
    converted = module.visit(conv)
    used = I.used_names(converted)  # adding and dropping imports changes none of them
    if SHIM_ALIAS in used:
        I.need(context, SHIM_MODULE, conv.shim_name, SHIM_ALIAS)
    converted = I.finish_imports(converted, context, used)
    converted, leftovers = I.mark_leftover_imports(
        converted, conv.codes["flink_name"], exports=conv.model.EXPORTS, table_code=conv.codes.get("table_stream"),
        table_params=conv.table_params, used=used,
    )
    # one rendering of the input places the markers and the leftover imports
    starts, _ = P.starts(module, [n for n, _, _ in leftovers] + [node for node, *_ in conv.marks])
    markers = conv.markers(starts)
    where = _positions(module, [n for n, _, _ in leftovers], starts)
    for node, code, msg in leftovers:
        markers.append(Marker(*where.get(id(node), (1, 1)), code, "todo", msg))
    try:
        # CPython compiles what is written (libcst rendered all of it but the formatter's part)
        code = FMT.format_changed(module, converted)
        compile(code, path, "exec")
        if len(_PLACEHOLDER.findall(code)) > len(_PLACEHOLDER.findall(source)):
            return None
    except Exception:  # noqa: BLE001 - any failure here means we must not write the output
        return None
    markers.sort(key=lambda mk: (mk.line, mk.col, mk.code))
    status = "partial" if any(mk.severity == "todo" for mk in markers) else "converted"
    return ConversionResult(path, source, code, generation=generation, status=status, markers=markers, rules_applied=conv.applied)
