"""Formatting the converted module: the formatter runs on the rewritten statements only.

The formatter is Ruff's (black's style: Ruff's formatter is a drop-in for black, and on the
rewritten statements of the fixtures it gives black's output for all but one of 222), run
in-process through ``ruff_api``: over a hundred times faster than black, whose cost was more
than four times that of parsing and rendering the files it formatted.

The rest of the file keeps its bytes (the user's formatting of untouched code stays as
written), and the formatter's cost follows what was rewritten, not the size of the file: on a
1 MB file, black on the whole module took longer than the rest of the conversion.

A statement is "rewritten" when its code (without the comments and blank lines above it) is
not among the input's statements of the same block. Top-level statements are compared first;
inside a compound statement whose header is unchanged (``def main():``, ``class Job:``,
``if __name__ == "__main__":``), the statements of its body are compared the same way, so a
job written inside ``def main()`` has only its rewritten statements formatted. A rewritten
statement inside a block is formatted where it stands (the formatter sees it under ``if _:``
lines of its depth), which needs the block indented as black and Ruff indent (4 spaces a level); in a file
indented otherwise, the whole top-level statement is formatted.
"""

from __future__ import annotations

from typing import Optional, Sequence

import libcst as cst
import ruff_api
from libcst._nodes.internal import CodegenState  # libcst renders a node under given indents only through it

_OPTIONS = ruff_api.FormatOptions()  # black's defaults: 88 columns, 4 spaces, double quotes
_INDENT = "    "


class _Whole(Exception):
    """A nested statement cannot be formatted where it stands: format its top-level statement."""


def format_changed(original: cst.Module, converted: cst.Module) -> str:
    """The code of ``converted`` with the formatter applied to the statements not found in ``original``."""
    return "".join(
        [
            _render(converted, converted.header),
            *_block(original, original.body, converted, converted.body, []),
            _render(converted, converted.footer),
        ]
    )


def _render(module: cst.Module, nodes, indents: Sequence[str] = ()) -> str:
    """Code of ``nodes`` as they stand under ``indents`` in ``module``."""
    state = CodegenState(default_indent=module.default_indent, default_newline=module.default_newline)
    state.indent_tokens = list(indents)
    for node in nodes if isinstance(nodes, (list, tuple)) else [nodes]:
        node._codegen(state)
    return "".join(state.tokens)


def _bare(stmt: cst.CSTNode) -> cst.CSTNode:
    """A statement without the comments and blank lines above it."""
    return stmt.with_changes(leading_lines=()) if hasattr(stmt, "leading_lines") else stmt


def _block(
    original: cst.Module,
    before: Sequence[cst.CSTNode],
    converted: cst.Module,
    after: Sequence[cst.CSTNode],
    indents: list[str],
) -> list[str]:
    """Code of the statements ``after`` of one block, the formatter applied to the rewritten ones."""
    # A statement the conversion did not change is the input's node itself (Converter.on_leave).
    # The others: a compound statement whose header is an input statement's has its body
    # compared statement by statement (``_compound``); a simple statement is kept when its code
    # (rendered where it stands, without the comments above it) is an input statement's.
    same = {id(s) for s in before} & {id(s) for s in after}
    simple: list[cst.CSTNode] = []  # the input's other simple statements, in order
    compound: dict[str, list[cst.CSTNode]] = {}  # header code -> input statements with it
    for s in before:
        if id(s) in same:
            continue
        header = _header(original, s)
        if header is not None:
            compound.setdefault(header, []).append(s)
        else:
            simple.append(s)
    parts: list[str] = []
    run: list[str] = []  # the code of rewritten statements in a row: formatted at once
    standin = ""  # what stands for the statement before the run

    def flush() -> None:
        if run:
            parts.append(_format("".join(run), indents, standin, converted.default_newline))
            run.clear()

    prev: Optional[cst.CSTNode] = None
    for stmt in after:
        if id(stmt) in same:
            flush()
            parts.append(_render(converted, stmt, indents))
            prev = stmt
            continue
        lead = _render(converted, list(getattr(stmt, "leading_lines", ())), indents)
        header = _header(converted, stmt)
        twins = compound.get(header) if header is not None else None
        if twins:
            flush()
            parts.append(lead + _compound(original, twins.pop(0), converted, stmt, indents))
            prev = stmt
            continue
        code = _render(converted, _bare(stmt), indents)
        twin = next((i for i, s in enumerate(simple) if _same_code(s, stmt)), None) if header is None else None
        if twin is not None:
            flush()
            del simple[twin]
            parts.append(lead + code)
        else:
            if not run:
                standin = _standin(prev, len(parts) == 1 and not indents)
            run.append(lead + code)
        prev = stmt
    flush()
    return parts


def _same_code(a: cst.CSTNode, b: cst.CSTNode) -> bool:
    """Whether two simple statement lines have the same code, the comments and blank lines
    above them aside (the same tree: the same code; a rewritten line differs early)."""
    if not (isinstance(a, cst.SimpleStatementLine) and isinstance(b, cst.SimpleStatementLine)):
        return type(a) is type(b) and _bare(a).deep_equals(_bare(b))  # a try, an if with an else...
    if len(a.body) != len(b.body):
        return False
    return all(x is y or x.deep_equals(y) for x, y in zip(a.body, b.body)) and a.trailing_whitespace.deep_equals(b.trailing_whitespace)


def _standin(prev: Optional[cst.CSTNode], docstring: bool) -> str:
    """A short statement of the kind of ``prev``: what the formatter's blank-line rules (black's) look at."""
    if prev is None:
        return ""
    if isinstance(prev, (cst.FunctionDef, cst.ClassDef)):
        return ("def _():" if isinstance(prev, cst.FunctionDef) else "class _:") + "\n" + _INDENT + "pass\n"
    if isinstance(prev, cst.BaseCompoundStatement):
        return "if _:\n" + _INDENT + "pass\n"
    first = prev.body[0] if isinstance(prev, cst.SimpleStatementLine) and prev.body else None
    if isinstance(first, (cst.Import, cst.ImportFrom)):
        return "import _\n"
    if docstring and isinstance(first, cst.Expr) and isinstance(first.value, (cst.SimpleString, cst.ConcatenatedString)):
        return '"""_"""\n'
    return "_ = 0\n"


def _header(module: cst.Module, stmt: cst.CSTNode) -> Optional[str]:
    """The code of a compound statement without its body, for those whose body alone can be compared."""
    body = getattr(stmt, "body", None)
    if not isinstance(body, cst.IndentedBlock) or getattr(stmt, "orelse", None) is not None:
        return None
    if isinstance(stmt, (cst.Try, cst.TryStar)):
        return None
    return _render(module, _bare(stmt).with_changes(body=body.with_changes(body=(), footer=())))


def _compound(original: cst.Module, before: cst.CSTNode, converted: cst.Module, after: cst.CSTNode, indents: list[str]) -> str:
    """A compound statement whose header is unchanged: its body compared statement by statement."""
    block: cst.IndentedBlock = after.body  # type: ignore[attr-defined]
    inner = indents + [block.indent if block.indent is not None else converted.default_indent]
    empty = _render(converted, _bare(after).with_changes(body=block.with_changes(body=(), footer=())), indents)
    filler = "".join(inner) + "pass" + converted.default_newline  # what libcst writes for an empty body
    assert empty.endswith(filler)
    try:
        body = _block(original, before.body.body, converted, block.body, inner)  # type: ignore[attr-defined]
    except _Whole:
        if indents:
            raise
        return _format(_render(converted, _bare(after)), [], "", converted.default_newline)
    return empty[: -len(filler)] + "".join(body) + _render(converted, list(block.footer), inner)


def _format(code: str, indents: list[str], standin: str, newline: str) -> str:
    """One statement (with the comments and blank lines above it), rendered under ``indents``,
    formatted where it stands: after ``if _:`` lines of its depth and a statement of
    the kind of the one before it (which decide its blank lines); the blank lines after it kept."""
    if any(i != _INDENT for i in indents):
        raise _Whole()
    depth = len(indents)
    wrapper = "".join(_INDENT * d + "if _:\n" for d in range(depth))
    context = wrapper + "".join(_INDENT * depth + line + "\n" for line in standin.splitlines())
    text = code.replace("\r\n", "\n")
    stripped = text.rstrip("\n")
    trailing = text[len(stripped) + 1 :] if len(stripped) < len(text) else ""
    formatted = ruff_api.format_string("converted.py", context + stripped + "\n", _OPTIONS)
    if not formatted.startswith(context):
        raise _Whole()
    formatted = formatted[len(context) :] + trailing
    if depth and not standin and formatted.startswith("\n") and not text.startswith("\n"):
        formatted = formatted[1:]  # a def first in its block: the blank line Ruff puts after the stand-in `if _:` only
    return formatted.replace("\n", newline) if newline != "\n" else formatted
