"""Reading input files: decoding, bad-input diagnostics, parsing and API-generation detection."""

from __future__ import annotations

import ast
import contextvars
import re
from typing import Optional, Union

import libcst as cst

from flink2spark.transpiler.visitors import Visitor
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.result import Marker

# Module prefixes of each API generation.
GENERATION_PREFIXES = {
    "dataset": ("flink.plan", "flink.functions", "flink.connection"),
    "jython": ("org.apache.flink",),
    "pyflink": ("pyflink",),
}

_PY2_PRINT = re.compile(r"^\s*print\s+(?![\s(=,.)\[]|$)[^\n]*$", re.M)
_PY2_EXEC = re.compile(r"^\s*exec\s+[\"'\w]", re.M)


class BadInput(Exception):
    def __init__(self, marker: Marker):
        super().__init__(marker.message)
        self.marker = marker


def _error(code: str, message: str, line: int = 1, col: int = 1) -> BadInput:
    return BadInput(Marker(line, col, code, "error", message))


def decode(data: bytes) -> str:
    """Decode file bytes as UTF-8 (a BOM is accepted); raise BadInput for binary or other encodings."""
    if not data:
        raise _error(M.EMPTY_FILE, "empty file: nothing to convert")
    if b"\x00" in data:
        raise _error(M.NOT_TEXT, "binary file (contains NUL bytes)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise _error(M.NOT_TEXT, f"not UTF-8 text: invalid byte 0x{data[exc.start]:02x}", line, col)
    return text


# Bytes every Flink import and every flink2spark marker contain (``flink.plan``, ``pyflink``,
# ``org.apache.flink``, ``TODO(flink2spark)``): a file without them cannot be Flink code.
FLINK_TEXT = b"flink"


def may_be_flink(data: Union[bytes, str]) -> bool:
    """False when the file cannot import Flink nor carry a marker: it is decided without parsing."""
    return (FLINK_TEXT if isinstance(data, bytes) else FLINK_TEXT.decode()) in data


def parse(source: str, compiled: bool = False) -> cst.Module:
    """Parse Python 3 source; raise BadInput with file positions for syntax errors.

    CPython compiles the file first: what it rejects (``yield`` outside a function, 200 nested
    parentheses, which would crash libcst's parser) is F2S001 at CPython's line and column,
    and libcst only ever sees a valid program.
    """
    if not compiled:  # ``compiled``: the caller already compiled it (or a part of what it compiled)
        check_compiles(source)
    try:
        return cst.parse_module(source)
    except cst.ParserSyntaxError as exc:
        line, col, message = _syntax_error_details(source, exc)
        raise _syntax_error(source, line, col, message)
    except RecursionError:
        raise _error(M.SYNTAX_ERROR, "too deeply nested for the converter; split the expression", 1, 1)


def check_compiles(source: str) -> ast.Module:
    """CPython's tree of ``source``; BadInput where CPython's compiler rejects it (syntax and
    compile-time errors: the tree is compiled too)."""
    try:
        tree = ast.parse(source)
        compile(tree, "<input>", "exec", dont_inherit=True)
        return tree
    except SyntaxError as err:  # IndentationError and TabError included
        line, col = err.lineno or 1, max(err.offset or 1, 1)
        raise _syntax_error(source, line, col, err.msg or "invalid syntax")
    except (RecursionError, MemoryError):
        raise _error(M.SYNTAX_ERROR, "too deeply nested: CPython cannot compile this file", 1, 1)
    except ValueError as err:  # source code string cannot contain null bytes
        raise _error(M.SYNTAX_ERROR, f"syntax error: {err}", 1, 1)


def _syntax_error(source: str, line: int, col: int, message: str) -> BadInput:
    lines = source.splitlines()
    bad_line = lines[line - 1] if 0 < line <= len(lines) else ""
    if (
        _PY2_PRINT.match(bad_line)
        or _PY2_EXEC.match(bad_line)
        or "`" in bad_line
        or "Missing parentheses in call to" in message
    ):
        return _error(
            M.PYTHON2,
            "Python 2 syntax (print/exec statement or backticks); port the file to Python 3 "
            "first, for example with `2to3 -w FILE` (Python <= 3.12) or by hand",
            line,
            col,
        )
    return _error(M.SYNTAX_ERROR, f"syntax error: {message}", line, col)


_LIBCST_AT = re.compile(r"error at (\d+):(\d+)")


def _syntax_error_details(source: str, exc: cst.ParserSyntaxError) -> tuple[int, int, str]:
    """1-based line and column, and a one-line message, for a file libcst cannot parse.

    libcst's native parser reports ``raw_line``/``raw_column`` as the start of the line it
    gave up on (``raw_column`` is always 0, and tokenizer errors report line 1), so the
    position comes from CPython's own parser, which points at the offending token and
    explains the error ("'(' was never closed"). If CPython accepts the file (libcst is
    stricter in a few corners), fall back to the position libcst writes in its message
    ("error at L:C", 0-based column), then to its attributes.
    """
    try:
        compile(source, "<input>", "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as err:  # IndentationError and TabError included
        if err.lineno:
            return err.lineno, max(err.offset or 1, 1), err.msg or "invalid syntax"
    except (ValueError, MemoryError, RecursionError):
        pass
    message = exc.message.strip().splitlines()[0] if exc.message else "invalid syntax"
    message = re.sub(r"^(parser|tokenizer) error: (error at \d+:\d+: )?", "", message)
    at = _LIBCST_AT.search(exc.message or "")
    if at:
        return int(at.group(1)), int(at.group(2)) + 1, message
    return exc.editor_line, exc.editor_column, message


def _dotted(node: Union[cst.Attribute, cst.Name, None]) -> str:
    if node is None:
        return ""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


def imported_modules(module: cst.Module) -> list[tuple[str, cst.CSTNode]]:
    """Every module named by an import statement anywhere in the file, with its statement."""
    found: list[tuple[str, cst.CSTNode]] = []

    class V(Visitor):
        def visit_Import(self, node: cst.Import) -> None:
            for alias in node.names:
                found.append((_dotted(alias.name), node))

        def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
            if node.relative:
                return
            base = _dotted(node.module)
            found.append((base, node))

    module.visit(V())
    return found


# Top-level module names that the converted tree defines itself (a project's own ``flink``
# package): imports of them are the project's code, not Flink's. Set per conversion by the engine.
SHADOWED: contextvars.ContextVar[frozenset] = contextvars.ContextVar("flink2spark_shadowed", default=frozenset())
# the whole text of the file being converted (statements set aside by transpiler/elide.py included):
# what a rule that binds a new name checks the name against
SOURCE: contextvars.ContextVar[str] = contextvars.ContextVar("flink2spark_source", default="")


def free_name(base: str) -> str:
    """``base`` (or ``base_``, ``base_2``...): a name the file being converted never mentions
    (statements set aside before the conversion included), for a name a rule binds: a loop or a
    function at module level must not rebind the user's."""
    text = SOURCE.get()
    for name in [base, base + "_"] + [f"{base}_{n}" for n in range(2, 1000)]:
        if not re.search(rf"\b{name}\b", text):
            return name
    raise AssertionError("unreachable: a file of fewer than 1000 such names")


def module_generation(name: str) -> Optional[str]:
    if name.split(".", 1)[0] in SHADOWED.get():
        return None
    for gen, prefixes in GENERATION_PREFIXES.items():
        for p in prefixes:
            if name == p or name.startswith(p + "."):
                return gen
    if name == "flink":
        return "dataset"
    return None


# The longest call chain (``a.map(f).map(g)...``) converted: libcst's parser takes time growing
# faster than a chain's length (500 calls: 6 s, 1,000: 40 s, 2,000: minutes).
LONG_CHAIN_CALLS = 400
_CHAIN = (ast.Call, ast.Attribute, ast.Subscript)


def long_chains(tree: ast.AST, limit: int = LONG_CHAIN_CALLS) -> list[tuple[int, int]]:
    """(line, calls) of each call chain of more than ``limit`` calls, in time linear in the tree."""
    inner: set[int] = set()  # chain links below the top of a chain: not counted again
    found = []
    for node in ast.walk(tree):  # breadth first: a chain's top comes before its links
        if id(node) in inner or not isinstance(node, _CHAIN):
            continue
        link, calls = node, 0
        while isinstance(link, _CHAIN):
            calls += isinstance(link, ast.Call)
            link = link.func if isinstance(link, ast.Call) else link.value
            inner.add(id(link))
        if calls > limit:
            found.append((node.lineno, calls))
    return found


def statements(tree: ast.AST):
    """Every statement of ``tree``, at any depth (bodies of defs, classes, branches, handlers,
    match cases), not walking expressions."""
    pending = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.stmt):
            yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                pending.extend(block)


def detect_generation(tree: ast.Module) -> Optional[str]:
    """The API generation a file uses, from what it imports anywhere (None: not a Flink file).

    Read on CPython's tree, before libcst parses the file. A file importing from several
    generations is classified by the first one found in the order DataSet, Jython, PyFlink.
    """
    names = set()
    for node in statements(tree):  # imports are statements: no expression is walked
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    gens = {module_generation(name) for name in names}
    for gen in ("dataset", "jython", "pyflink"):
        if gen in gens:
            return gen
    return None
