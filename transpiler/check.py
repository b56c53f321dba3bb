"""``flink2spark check``: find the Flink constructs still present in a file.

Two kinds of findings, both at 1-based ``line:col`` of the input:

* ``F2S900``: an import of a Flink module (any API generation), at the import statement.
* ``F2S901``: a ``# TODO(flink2spark): F2Snnn ...`` comment left by ``convert``; the
  message repeats the original code and text.

A file that cannot be read or parsed gives one error marker (``F2S001``-``F2S004``).
"""

from __future__ import annotations

import re
from typing import Optional

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from flink2spark.transpiler.visitors import Visitor
from flink2spark.transpiler import guards as G
from flink2spark.transpiler import imports as I
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import source as S
from flink2spark.transpiler.result import Marker

GENERATION_NAMES = {"dataset": "DataSet API", "jython": "Jython streaming API", "pyflink": "PyFlink API"}

# The comment convert writes for a construct it left as is, e.g.
#   # TODO(flink2spark): F2S100 DataSet.first has no conversion
TODO_COMMENT = re.compile(r"#\s*TODO\(flink2spark\):?\s*(?:(?P<code>F2S\d{3})\b:?)?\s*(?P<text>.*)$")
_TODO_HINT = "TODO(flink2spark)"


def check_bytes(data: bytes, path: str = "<string>", shadowed: frozenset = frozenset()) -> list[Marker]:
    """Like ``check_source`` for a file's raw bytes (an undecodable file gives an error marker).

    An empty file has nothing to check and gives no findings.
    """
    if not data:
        return []
    try:
        text = S.decode(data)
    except S.BadInput as bad:
        return [bad.marker]
    return check_source(text, path, shadowed)


def check_source(text: str, path: str = "<string>", shadowed: frozenset = frozenset()) -> list[Marker]:
    """Every Flink import and every unresolved flink2spark TODO comment, sorted by position.

    ``shadowed``: top-level names of the tree's own modules (a local ``flink`` package), not Flink's.
    """
    if not S.may_be_flink(text):
        return []  # no Flink import nor marker text: nothing to find, no parse
    from flink2spark.transpiler.engine import run_deep

    token = S.SHADOWED.set(frozenset(shadowed))
    try:
        return run_deep(_check_source, text, path)
    finally:
        S.SHADOWED.reset(token)


def _check_source(text: str, path: str) -> list[Marker]:
    try:
        module = S.parse(text)
    except S.BadInput as bad:
        return [bad.marker]

    flink_imports = [
        (name, node, gen) for name, node in S.imported_modules(module) if (gen := S.module_generation(name)) is not None
    ]
    if flink_imports and G.only_a_feature_flag(G.find(module), lambda: I.used_names(module)):
        flink_imports = []  # try: import pyflink / except ImportError: a feature flag, as convert leaves it
    has_todo = _TODO_HINT in text
    if not flink_imports and not has_todo:
        return []  # the common case: skip the (slow) position computation

    # The module is only read, so the wrapper may share its nodes with ``module``.
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    found: list[Marker] = []

    for name, node, gen in flink_imports:
        start = positions[node].start
        found.append(
            Marker(
                start.line,
                start.column + 1,
                M.CHECK_IMPORT,
                M.severity(M.CHECK_IMPORT),
                f"Flink import: {name} ({GENERATION_NAMES.get(gen, gen)})",
            )
        )

    if has_todo:
        for comment in _comments(wrapper.module):
            match = TODO_COMMENT.search(comment.value)
            if not match:
                continue
            start = positions[comment].start
            original = match.group("code") or "(no code)"
            text_part = match.group("text").strip()
            message = f"unresolved TODO {original}" + (f": {text_part}" if text_part else "")
            found.append(Marker(start.line, start.column + 1, M.CHECK_TODO, M.severity(M.CHECK_TODO), message))

    found.sort(key=lambda m: (m.line, m.col, m.code))
    return found


_FOUND_TODO = re.compile(r"unresolved TODO (F2S\d{3})\b")


def todo_code(marker: Marker) -> Optional[str]:
    """The code of the TODO comment an ``F2S901`` finding found (``F2S100``), else None."""
    if marker.code != M.CHECK_TODO:
        return None
    found = _FOUND_TODO.match(marker.message)
    return found.group(1) if found else None


def _comments(module: cst.Module) -> list[cst.Comment]:
    comments: list[cst.Comment] = []

    class Collect(Visitor):
        def visit_Comment(self, node: cst.Comment) -> None:
            comments.append(node)

    module.visit(Collect())
    return comments
