"""The libcst transformer that applies the rules of one API generation to a module."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence, Union

import libcst as cst
from libcst.helpers import parse_template_expression
from libcst.metadata import QualifiedNameSource

from flink2spark.transpiler.visitors import nodes
from flink2spark.transpiler import foreign
from flink2spark.transpiler import functions as F
from flink2spark.transpiler import guards as G
from flink2spark.transpiler import imports as I
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import unread as U
from flink2spark.transpiler import visitors as V
from flink2spark.transpiler.infer import Resolver
from flink2spark.transpiler.source import free_name as _free_name, module_generation
from flink2spark.transpiler.registry import Rule, dispatch_table
from flink2spark.transpiler.result import Marker
from flink2spark.transpiler.results import REMOVE, Keep, RuleContractError, Todo, strict

SHIM_MODULE = "flink2spark.runtime"
SHIM_ALIAS = "f2s"

# Marker codes the engine writes, by role; a model overrides them with its own CODES.
DEFAULT_CODES = {
    "unsupported": M.DS_UNSUPPORTED,
    "function": M.DS_FUNCTION,
    "collector": M.DS_COLLECTOR,
    "unknown_receiver": M.DS_UNKNOWN_RECEIVER,
    "flink_name": M.DS_FLINK_NAME,
    "parallelism": M.DS_PARALLELISM,
}


@dataclass
class Segment:
    """One call of a builder chain: ``method(args)`` with its original and converted node."""

    method: str
    original: cst.Call
    updated: cst.Call

    @property
    def args(self) -> Sequence[cst.Arg]:
        return self.updated.args

    @property
    def original_args(self) -> Sequence[cst.Arg]:
        return self.original.args


@dataclass
class Site:
    rule: Rule
    receiver_type: str
    segments: list[Segment]
    modifiers: list[Segment]
    broadcast_sets: list[tuple[cst.BaseExpression, cst.BaseExpression]] = field(default_factory=list)
    broadcast_used: bool = False

    @property
    def head(self) -> Segment:
        return self.segments[0]

    @property
    def tail(self) -> Segment:
        return self.segments[-1]

    @property
    def receiver(self) -> cst.BaseExpression:
        """The converted receiver of the chain's first call."""
        return self.head.updated.func.value  # type: ignore[attr-defined]

    def segment(self, method: str) -> Optional[Segment]:
        for s in self.segments:
            if s.method == method:
                return s
        return None


class Context:
    """What a rule's converter gets: the call site and the engine's services."""

    def __init__(self, conv: "Converter", site: Site, outer: cst.Call):
        self.conv = conv
        self.site = site
        self.outer = outer  # original node of the whole chain (its last call)
        self.resolver = conv.resolver
        self.todos: list[Todo] = []  # the TODOs written while converting this site

    # -- markers and results (transpiler/results.py) ----------------------------------------
    def todo(self, code: str, message: str, node: Optional[cst.CSTNode] = None) -> Todo:
        """Write a TODO marker at ``node`` (the whole chain by default); a rule that leaves the
        call as it is returns it: ``return ctx.todo(code, message)``."""
        self.conv.mark(node or self.outer, "todo", code, message)
        self.todos.append(Todo(code, message))
        return self.todos[-1]

    def todo_left(self) -> Todo:
        """The result of a rule whose helper (``function``, ``key``...) gave up with a TODO
        and returned None: that TODO. The engine refuses it when no TODO was written."""
        return self.todos[-1] if self.todos else Todo("", "")

    def keep(self, reason: str) -> Keep:
        """The result of a rule that leaves the call as it is on purpose, with no marker:
        ``reason`` says which call converts it (a builder's part, say)."""
        return Keep(reason)

    def note(self, code: str, message: str, node: Optional[cst.CSTNode] = None) -> None:
        self.conv.mark(node or self.outer, "note", code, message)

    # -- building code ----------------------------------------------------------------------
    def shim(self, name: str) -> cst.Attribute:
        """``f2s.<name>``: a runtime-shim member (adds the import)."""
        return self.conv.shim(name)

    def import_name(self, module: str, name: str) -> cst.Name:
        I.need(self.conv.codemod, module, name)
        return cst.Name(name)

    def expr(self, template: str, **parts: Union[cst.CSTNode, str]) -> cst.BaseExpression:
        nodes = {k: (cst.parse_expression(v) if isinstance(v, str) else v) for k, v in parts.items()}
        if all(isinstance(n, cst.BaseExpression) for n in nodes.values()):
            return _fill_template(template, nodes)
        return parse_template_expression(template, **nodes)  # type: ignore[arg-type]

    def call_args(self, args: Sequence[cst.Arg]) -> list[cst.Arg]:
        return [a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in args]

    def remove_statement(self, small: cst.BaseSmallStatement) -> None:
        """Drop a small statement of the original module (e.g. an assignment whose value a
        rule moved elsewhere); its comments move to the next statement."""
        self.conv._remove_exprs.add(id(small))

    def rewrite_statement(self, stmt: cst.CSTNode, rewrite: Callable[[cst.CSTNode], cst.CSTNode]) -> bool:
        """Have the statement ``stmt`` (an original node around the call being converted, a
        ``def`` whose decorator it is, say) rewritten by ``rewrite`` once its own parts are
        converted: ``rewrite`` gets the converted statement (with its markers) and returns its
        replacement, or a ``cst.FlattenSentinel`` of it and statements a rule adds around it.
        One rewrite per statement: False when the statement has one already."""
        if id(stmt) in self.conv._statement_rewrites:
            return False
        self.conv._statement_rewrites[id(stmt)] = rewrite
        return True

    def replace_class(self, cls: cst.ClassDef, new: cst.ClassDef) -> bool:
        """Have the module-level class ``cls`` (an original node, whose use a rule converts:
        it may come before that use, so ``rewrite_statement`` is too late for it) replaced by
        ``new`` when the module is left. False when ``cls`` is not a class of the module's top
        level, its name names another class there too, or it has a replacement already."""
        same = [s for s in self.resolver.module.body if isinstance(s, cst.ClassDef) and s.name.value == cls.name.value]
        if same != [cls] or cls.name.value in self.conv._replacements:
            return False
        self.conv._replacements[cls.name.value] = new
        return True

    def remove_class(self, cls: cst.ClassDef) -> bool:
        """Have the module-level class ``cls`` (an original node) dropped when the module is
        left (its leading comments move to the next statement): for a class the conversion
        no longer reads. False as for ``replace_class``."""
        return self.replace_class(cls, None)  # type: ignore[arg-type]

    @property
    def is_statement(self) -> bool:
        return isinstance(self.resolver.parent(self.outer), cst.Expr)

    @property
    def statement_line(self) -> Optional[cst.SimpleStatementLine]:
        """The statement line the call being converted is alone in (``ds.print()``), or None."""
        expr = self.resolver.parent(self.outer)
        line = self.resolver.parent(expr) if isinstance(expr, cst.Expr) else None
        return line if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None

    def print_loop(self, records: cst.BaseExpression, args: Callable[[cst.Name], list[cst.Arg]]) -> Optional[cst.BaseExpression]:
        """Spark's idiom for printing an RDD's records in the driver (the programming guide's
        ``collect()`` then print each): the statement the call is alone in becomes
        ``for record in <records>.collect(): print(*args(record))``; returns the converted call
        (``<records>.collect()``), or None when the call is not a statement of its own or
        ``print`` is not Python's builtin there."""
        line = self.statement_line
        site = _scoped_name(self.resolver, self.outer)
        if line is None or site is None or any(not self.resolver.is_builtin(b) for b in self.resolver.visible_bindings("print", site) or ()):
            return None
        name = cst.Name(_free_name("record"))
        printed = cst.SimpleStatementLine([cst.Expr(cst.Call(func=cst.Name("print"), args=args(name)))])

        def rewrite(new):
            return cst.For(target=name, iter=new.body[0].value, body=cst.IndentedBlock([printed]), leading_lines=new.leading_lines)

        self.rewrite_statement(line, rewrite)
        return self.expr("{rdd}.collect()", rdd=records)

    # -- arguments -------------------------------------------------------------------------
    def arg(self, seg: Segment, index: int, keyword: Optional[str] = None) -> Optional[tuple[cst.BaseExpression, cst.BaseExpression]]:
        """(original, converted) value of a positional or keyword argument."""
        pos = 0
        for o, u in zip(seg.original.args, seg.updated.args):
            if o.keyword is not None:
                if keyword is not None and o.keyword.value == keyword:
                    return o.value, u.value
                continue
            if o.star:
                return None
            if pos == index:
                return o.value, u.value
            pos += 1
        return None

    def function(self, seg: Segment, convention: str, packed: bool = False, index: int = 0, pack_name: str = "pair") -> Optional[cst.BaseExpression]:
        """The user function argument as a Spark callable (None: a TODO was left)."""
        found = self.arg(seg, index, "operator")
        for keyword in ("func", "key_selector"):  # PyFlink's keywords
            if found is None:
                found = self.arg(seg, index, keyword)
        if found is None:
            self.todo(self.conv.codes["function"], f"{seg.method}(): no function argument found", seg.original)
            return None
        return self.conv.adapt_function(self, found[0], found[1], self.conv.conventions[convention], packed, pack_name)

    def key(self, seg: Segment) -> Optional[cst.BaseExpression]:
        """Key function of group_by/where/equal_to/distinct/partition_by_hash arguments."""
        return self.conv.key_function(self, seg)

    def int_literal(self, node: cst.BaseExpression) -> Optional[int]:
        if isinstance(node, cst.Integer):
            return int(node.value)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus) and isinstance(node.expression, cst.Integer):
            return -int(node.expression.value)
        return None

    def qualified(self, original: cst.BaseExpression) -> Optional[str]:
        return self.resolver.qualified_name(original)


_TEMPLATE_PREFIX = "__f2s_part_"
# template -> (its parsed tree, the paths to its holes as a trie: (field, index) -> trie or hole name,
# how many times each hole appears)
_templates: dict[str, tuple[cst.BaseExpression, dict, Counter]] = {}


def _scoped_name(resolver: Resolver, node: cst.CSTNode) -> Optional[cst.Name]:
    """A name in ``node`` where names can be looked up (the scope of a call), or None."""
    if isinstance(node, cst.Name) and resolver.scoped(node):
        return node
    for child in node.children:
        found = _scoped_name(resolver, child)
        if found is not None:
            return found
    return None


def _fill_template(template: str, parts: dict[str, cst.BaseExpression]) -> cst.BaseExpression:
    """``template`` with its ``{name}`` expression holes filled by ``parts``.

    libcst's ``parse_template_expression`` deep-copies every part, so a rule that wraps the
    converted receiver of a long call chain copied the whole chain at each call (quadratic in
    its length). Here the parsed template is cached with the paths to its holes; filling it
    rebuilds the nodes on those paths only (the template's other nodes are immutable and
    shared), and a part is copied only if its hole repeats.
    """
    if template not in _templates:
        parsed = cst.parse_expression(re.sub(r"\{(\w+)\}", _TEMPLATE_PREFIX + r"\1", template))
        trie: dict = {}
        holes: Counter = Counter()
        if isinstance(parsed, cst.Name) and parsed.value.startswith(_TEMPLATE_PREFIX):
            holes[parsed.value[len(_TEMPLATE_PREFIX):]] += 1
        _hole_paths(parsed, trie, holes)
        _templates[template] = (parsed, trie, holes)
    parsed, trie, holes = _templates[template]
    missing = set(holes) - set(parts)
    if missing:
        raise ValueError(f"template {template!r}: no value for {sorted(missing)}")
    if isinstance(parsed, cst.Name) and parsed.value.startswith(_TEMPLATE_PREFIX):  # "{x}": the part itself
        return parts[parsed.value[len(_TEMPLATE_PREFIX):]]
    return _filled(parsed, trie, parts, holes) if trie else parsed


def _hole_paths(node: cst.CSTNode, trie: dict, holes: Counter) -> bool:
    """Add to ``trie`` the paths from ``node`` to the hole names below it; whether there is one."""
    found = False
    for name in V.node_fields(node):
        value = getattr(node, name)
        items = list(enumerate(value)) if isinstance(value, (list, tuple)) else [(None, value)]
        for index, child in items:
            if not isinstance(child, cst.CSTNode):
                continue
            if isinstance(child, cst.Name) and child.value.startswith(_TEMPLATE_PREFIX):
                hole = child.value[len(_TEMPLATE_PREFIX):]
                trie[(name, index)] = hole
                holes[hole] += 1
                found = True
                continue
            below: dict = {}
            if _hole_paths(child, below, holes):
                trie[(name, index)] = below
                found = True
    return found


def _filled(node: cst.CSTNode, trie: dict, parts: dict[str, cst.BaseExpression], holes: Counter) -> cst.CSTNode:
    changes: dict[str, object] = {}
    for (name, index), below in trie.items():
        if isinstance(below, str):
            part = parts[below]
            new = part.deep_clone() if holes[below] > 1 else part
        else:
            current = getattr(node, name) if index is None else getattr(node, name)[index]
            new = _filled(current, below, parts, holes)
        if index is None:
            changes[name] = new
        else:
            items = list(changes.get(name, getattr(node, name)))  # type: ignore[arg-type]
            items[index] = new
            changes[name] = items
    return node.with_changes(**changes)


def _keep_comments(original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
    """The user's comments inside a statement whose expressions a rule rewrote (a call chain
    written over several lines) go above it, in their order, instead of being lost."""
    had = V.comments(original)
    if original is updated or not had:
        return updated
    left = Counter(V.comments(updated))
    lost = []
    for text in had:
        if left[text]:
            left[text] -= 1
        else:
            lost.append(text)
    if not lost:
        return updated
    return updated.with_changes(leading_lines=[*updated.leading_lines, *(cst.EmptyLine(comment=cst.Comment(t)) for t in lost)])


def _accepts(method: Optional[cst.FunctionDef], count: int) -> bool:
    """Whether a method (``self`` first) can be called with ``count`` positional arguments;
    True when it cannot be told (no def, decorators)."""
    if method is None or method.decorators:
        return True
    params = method.params
    positional = list(params.posonly_params) + list(params.params)
    if not positional:
        return isinstance(params.star_arg, cst.Param)
    positional = positional[1:]  # self
    required = sum(1 for p in positional if p.default is None)
    return required <= count and (count <= len(positional) or isinstance(params.star_arg, cst.Param))


# Whitespace, comments and punctuation: the converter has no hook on them and nothing below
# them to convert (libcst would rebuild each one it enters).
_TOKENS = frozenset(
    kind
    for kind in vars(cst).values()
    if isinstance(kind, type)
    and issubclass(kind, (cst.BaseParenthesizableWhitespace, cst.Newline, cst.TrailingWhitespace, cst.EmptyLine, cst.Comment,
                          cst.Comma, cst.Dot, cst.LeftParen, cst.RightParen, cst.LeftSquareBracket, cst.RightSquareBracket,
                          cst.LeftCurlyBrace, cst.RightCurlyBrace, cst.Colon, cst.AssignEqual, cst.Semicolon,
                          cst.BaseBinaryOp, cst.BaseBooleanOp, cst.BaseCompOp, cst.BaseUnaryOp, cst.BaseAugOp))
)


# top-level packages whose objects are not Flink's, though their methods may share Flink's names
_LIBRARIES = frozenset({"flink2spark", "pyspark", "pandas", "numpy", "polars", "pyarrow", "dask", "ray", "sqlalchemy", "duckdb"})


def _library_import(node: cst.ImportFrom) -> bool:
    """Whether a ``from M import ...`` imports from a library's module (not the user's own)."""
    if node.relative or node.module is None:
        return False
    module = node.module
    while isinstance(module, cst.Attribute):
        module = module.value
    return isinstance(module, cst.Name) and module.value in _LIBRARIES


class Converter(V.Transformer):
    def __init__(self, generation: str, codemod: I.Requests, disabled: frozenset[str] = frozenset(), path: Optional[str] = None):
        super().__init__()
        self.path = path
        from flink2spark.transpiler.models import MODELS

        self.model = MODELS[generation]
        self.codes = {**DEFAULT_CODES, **self.model.CODES}
        self.conventions = self.model.CONVENTIONS
        self.api_name = self.model.API_NAME
        self.shim_name = self.model.SHIM_NAME
        self.generation = generation
        self.codemod = codemod
        self.table = dispatch_table(generation, *self.model.RULE_SETS)
        self.disabled = disabled
        # (node, code, severity, message) of each marker; ``markers`` places them in the input
        self.marks: list[tuple[cst.CSTNode, str, str, str]] = []
        self.applied: list[str] = []
        self.resolver: Resolver = None  # type: ignore[assignment]
        self.classes: dict[int, F.ClassInfo] = {}
        self._stmt_comments: dict[int, list[str]] = {}
        self._remove_exprs: set[int] = set()
        self._removed_lines: dict[int, cst.CSTNode] = {}  # id -> node (kept alive: ids of freed nodes get reused)
        self._method_owner: dict[int, F.ClassInfo] = {}
        self._header_comments: set[str] = set()
        # (def, parameter) whose calls pass streams from the Table API: its annotation is part
        # of the Table API part (imports it names say so)
        self.table_params: set[tuple[str, str]] = set()
        self._bridges: Optional[bool] = None  # whether the module names a Table bridge (_has_bridges)
        self._changed: list[bool] = []  # per node being visited: whether something below it changed
        # id of an original statement -> what rewrites it once it is converted (Context.rewrite_statement)
        self._statement_rewrites: dict[int, Callable[[cst.CSTNode], cst.CSTNode]] = {}
        # name of a module-level class -> its replacement (Context.replace_class)
        self._replacements: dict[str, cst.ClassDef] = {}
        # assignments of Flink-only values and Flink function classes the conversion may leave unread (transpiler/unread.py)
        self._unread = U.Candidates()

    # -- setup ---------------------------------------------------------------------------
    def visit_Module(self, node: cst.Module) -> None:
        self.resolver = Resolver(node, self.model)
        self.resolver.path = self.path
        # comments above the first statement belong to the module header in libcst
        self._header_comments = {ln.comment.value for ln in node.header if ln.comment is not None}
        for cls in self.resolver.class_defs:
            info = F.analyze_class(cls, self.resolver, self.classes)  # type: ignore[arg-type]
            if info is None:
                continue
            self.classes[id(cls)] = info
            if not info.convertible:
                self.mark(cls, "todo", self.codes["collector"], f"class {cls.name.value}: {info.reason}; convert it by hand")  # type: ignore[attr-defined]
            for stmt in cls.body.body:  # type: ignore[attr-defined]
                if isinstance(stmt, cst.FunctionDef) and stmt.name.value in info.collector_methods:
                    self._method_owner[id(stmt)] = info
        self._unread.find(self.resolver, self.classes)

    # -- markers -------------------------------------------------------------------------
    def mark(self, node: cst.CSTNode, severity: str, code: str, message: str) -> None:
        label = "TODO" if severity == "todo" else "NOTE"
        text = f"# {label}(flink2spark): {code} {message}"
        if severity == "todo" and self._already_marked(node, text):
            return  # converted before: the statement carries its TODO for porting by hand already
        self.marks.append((node, code, severity, message))
        stmt = node
        while stmt is not None and not isinstance(stmt, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            stmt = self.resolver.parent(stmt)
        if stmt is not None:
            self._stmt_comments.setdefault(id(stmt), [])
            if text not in self._stmt_comments[id(stmt)]:
                self._stmt_comments[id(stmt)].append(text)

    def markers(self, where: dict[int, tuple[int, int]]) -> list[Marker]:
        """The markers, at the starts ``where`` gives of their nodes in the input (1, 1 for a
        node that is not the input's)."""
        return [Marker(*where.get(id(node), (1, 1)), code, severity, message) for node, code, severity, message in self.marks]  # type: ignore[arg-type]

    # A node nothing below changed leaves the transform as the input's node itself (libcst
    # rebuilds every node it visits): the formatter then knows it unchanged by identity.
    def on_visit(self, node: cst.CSTNode) -> bool:
        self._changed.append(False)
        if type(node) in _TOKENS or (self.resolver is not None and id(node) in self.resolver.inert):
            return False  # nothing to convert below (Resolver.inert), or whitespace and punctuation
        return super().on_visit(node)

    def on_leave(self, original_node, updated_node):
        updated = super().on_leave(original_node, updated_node)
        updated = self._with_comments(original_node, updated)
        rewrite = self._statement_rewrites.pop(id(original_node), None)
        if rewrite is not None:
            updated = rewrite(updated)
        if not self._changed.pop() and updated is updated_node:
            self._unread.left(original_node, original_node)
            return original_node
        if self._changed:
            self._changed[-1] = True
        self._unread.left(original_node, updated)
        return updated

    def _with_comments(self, original_node, updated):
        """``updated`` with the markers written on the statement ``original_node`` above it."""
        comments = self._stmt_comments.get(id(original_node))
        if comments and isinstance(updated, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            existing = self._header_comments | {ln.comment.value for ln in updated.leading_lines if ln.comment is not None}
            new = [cst.EmptyLine(comment=cst.Comment(c)) for c in comments if c not in existing]
            if new:
                removed = id(updated) in self._removed_lines
                updated = updated.with_changes(leading_lines=[*updated.leading_lines, *new])
                if removed:
                    self._removed_lines[id(updated)] = updated
        return updated

    # -- shim and imports --------------------------------------------------------------------
    def shim(self, name: str) -> cst.Attribute:
        """``f2s.<name>``; the engine adds the shim import once if the output uses it."""
        return cst.Attribute(value=cst.Name(SHIM_ALIAS), attr=cst.Name(name))

    def leave_Name(self, original: cst.Name, updated: cst.Name):
        parent = self.resolver.parent(original)
        if isinstance(parent, (cst.ImportAlias, cst.Param, cst.FunctionDef, cst.ClassDef)):
            return updated
        if isinstance(parent, cst.Attribute) and parent.attr is original:
            return updated
        q = self.resolver.qualified_name(original)
        if q in self.model.NAME_VALUES:
            return cst.parse_expression(self.model.NAME_VALUES[q])
        if q in self.model.NAME_MAP:
            spark = self.model.spark_name(self.resolver, q) if self.model.spark_name is not None else None
            if spark is not None:
                I.need(self.codemod, spark[0], spark[1])
                return cst.Name(spark[1])
            return self.shim(self.model.NAME_MAP[q][1])
        return updated

    def leave_Annotation(self, original: cst.Annotation, updated: cst.Annotation):
        """An annotation naming a Flink class the model converts (``t_env: TableEnvironment``,
        ``-> Table``) names the pyspark.sql class its objects become (``SparkSession``,
        ``DataFrame``), so that no Flink import stays for an annotation alone."""
        says, typ = self.resolver.annotation_type(original)
        spark = self.model.ANNOTATION_CLASSES.get(typ or "") if says else None
        if spark is None:
            return updated
        I.need(self.codemod, "pyspark.sql", spark)
        return updated.with_changes(annotation=cst.Name(spark))

    def visit_Param(self, node: cst.Param) -> None:
        if node.annotation is None or "table_stream" not in self.codes:
            return
        args = self.resolver.param_arguments(node) or []
        if any(a is not None and self.table_bridge(a) is not None for a in args):
            func = self.resolver.parent(self.resolver.parent(node))
            self.table_params.add((func.name.value, node.name.value))  # type: ignore[union-attr]

    def _table_only_params(self, func: cst.FunctionDef) -> None:
        """Annotated parameters of ``func`` read only by statements left with the Table API
        part (TODO F2S210): their annotations belong to that part too (``table_params``)."""
        code = self.codes.get("table_stream")
        if code is None:
            return
        prefix = f"# TODO(flink2spark): {code} "
        for param in func.params.params:
            key = (func.name.value, param.name.value)
            if param.annotation is None or key in self.table_params:
                continue
            refs = [r.node for a in self.resolver.scope_bindings(param.name) or () if a.node is param for r in a.references]
            if refs and all(any(c.startswith(prefix) for c in self.statement_comments(r)) for r in refs):
                self.table_params.add(key)

    def statement_comments(self, node: cst.CSTNode) -> list[str]:
        """The markers on the statement of ``node``: this conversion's and the input's (a
        program converted before keeps them there)."""
        stmt = node
        while stmt is not None and not isinstance(stmt, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            stmt = self.resolver.parent(stmt)
        if stmt is None:
            return []
        existing = [ln.comment.value for ln in stmt.leading_lines if ln.comment is not None]  # type: ignore[attr-defined]
        return self._stmt_comments.get(id(stmt), []) + existing

    # -- function classes ------------------------------------------------------------------
    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef):
        self._table_only_params(original)
        info = self._method_owner.get(id(original))
        if info is None or not info.convertible:
            return updated
        collector, iterators = info.collector_methods[original.name.value]
        return F.rewrite_collector_method(updated, collector, iterators, lambda mod, name: f"{SHIM_ALIAS}.{self.shim(name).attr.value}")

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef):
        info = self.classes.get(id(original))
        if info is None or not info.convertible or not info.flink_bases:
            return updated
        updated = self._without_flink_only_methods(updated, info)
        bases = [b for i, b in enumerate(updated.bases) if i not in info.flink_bases]
        if bases:
            bases[-1] = bases[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            return updated.with_changes(bases=bases)
        return updated.with_changes(bases=[], lpar=cst.MaybeSentinel.DEFAULT, rpar=cst.MaybeSentinel.DEFAULT)

    def _without_flink_only_methods(self, updated: cst.ClassDef, info: F.ClassInfo) -> cst.ClassDef:
        """The class without the methods only Flink calls on its kind (the model's
        ``FLINK_ONLY_METHODS``: an aggregate function's get_result_type()...), unless the program
        calls them itself or they are all the class has."""
        drop = self.resolver.model.FLINK_ONLY_METHODS.get(info.kind, frozenset())
        drop = {m for m in drop if not self.resolver.calls_of(m)}
        if not drop or not isinstance(updated.body, cst.IndentedBlock):
            return updated
        body = [s for s in updated.body.body if not (isinstance(s, cst.FunctionDef) and s.name.value in drop)]
        if not body or len(body) == len(updated.body.body):
            return updated
        return updated.with_changes(body=updated.body.with_changes(body=body))

    def class_of(self, original: cst.BaseExpression) -> Optional[tuple[F.ClassInfo, bool]]:
        """(class info, is a fresh instance) for ``Cls(...)`` or a name bound to one."""
        fresh = True
        expr = original
        if isinstance(expr, cst.Name):
            value = self.resolver.single_value(expr)
            if value is None:
                return None
            expr, fresh = value, False
        if isinstance(expr, cst.Call):
            target = self.resolver.local_def(expr.func)
            if isinstance(target, cst.ClassDef) and id(target) in self.classes:
                return self.classes[id(target)], fresh
            if isinstance(expr.func, (cst.Name, cst.Attribute)):
                found = foreign.lookup(self.resolver, expr.func, self.path)
                if isinstance(found, F.ClassInfo):
                    return found, fresh
        return None

    def def_of(self, original: cst.BaseExpression) -> Optional[cst.FunctionDef]:
        """The def a name refers to: in this module or imported from a sibling module."""
        target = self.resolver.local_def(original)
        if isinstance(target, cst.FunctionDef):
            return target
        if isinstance(original, (cst.Name, cst.Attribute)):
            found = foreign.lookup(self.resolver, original, self.path)
            if isinstance(found, cst.FunctionDef):
                return found
        return None

    # -- user functions ----------------------------------------------------------------------
    def adapt_function(self, ctx: Context, original, updated, conv: F.Convention, packed: bool, pack_name: str):
        site = ctx.site
        # Flink function class instance
        found = self.class_of(original)
        if found is not None:
            info, fresh = found
            if not info.convertible:
                ctx.todo(self.codes["collector"], f"{info.node.name.value} could not be converted (see the class)", original)
                return None
            if F._method(info.node, conv.method) is None and not (conv.method == "get_key"):
                ctx.todo(self.codes["function"], f"{info.node.name.value} has no {conv.method}() method", original)
                return None
            expected = conv.values + (1 if conv.collector else 0)
            if not _accepts(F._method(info.node, conv.method), expected):
                ctx.todo(
                    self.codes["function"],
                    f"{info.node.name.value}.{conv.method}() does not take {expected} argument(s), which is what Flink"
                    " passes it (the job fails on Flink too): fix its parameters",
                    original,
                )
                return None
            instance = updated
            if site.broadcast_sets and not site.broadcast_used:
                sets = cst.Dict([cst.DictElement(k, v) for k, v in site.broadcast_sets])
                instance = cst.Call(func=self.shim("with_broadcast_sets"), args=[cst.Arg(updated), cst.Arg(sets)])
                site.broadcast_used = True
            method = cst.Attribute(value=instance, attr=cst.Name(conv.method))
            if not packed or conv.values == 1:
                return method
            if fresh and info.stateful:
                fn = F._fresh("fn", set())
                return cst.parse_expression(f"lambda {pack_name}, {fn}=X: {fn}(*{pack_name})").visit(_Replace("X", method))
            return cst.Lambda(
                params=cst.Parameters([cst.Param(cst.Name(pack_name))]),
                body=cst.Call(func=method, args=[cst.Arg(cst.Name(pack_name), star="*")]),
            )
        # lambda
        if isinstance(updated, cst.Lambda):
            params = F.lambda_params(updated)
            expected = conv.values + (1 if conv.collector else 0)
            if params is None or len(params) != expected:
                ctx.todo(self.codes["function"], f"lambda should take {expected} parameter(s) for {conv.method}()", original)
                return None
            body = updated.body
            if conv.collector:
                body = F.drop_collector(updated, params, params[-1])
                if body is None:
                    ctx.todo(M.DS_COLLECTOR, f"lambda uses its collector '{params[-1]}' other than as {params[-1]}.collect(value)", original)
                    return None
                params = params[:-1]
            if packed and len(params) > 1:
                lam = F.pack_lambda(params, body, pack_name)
                if lam is None:
                    return cst.parse_expression(f"lambda {pack_name}: X(*{pack_name})").visit(_Replace("X", F.make_lambda(params, body)))
                return lam
            if body is updated.body and params == F.lambda_params(updated):
                return updated
            return updated.with_changes(params=cst.Parameters([cst.Param(cst.Name(p)) for p in params]), body=body)
        # a def in this module or a sibling module
        target = self.def_of(original)
        if target is not None:
            nparams = len(target.params.params)
            expected = conv.values + (1 if conv.collector else 0)
            if nparams != expected:
                ctx.todo(self.codes["function"], f"{target.name.value}() should take {expected} parameter(s) for {conv.method}()", original)
                return None
            if conv.collector:
                collector = target.params.params[-1].name.value
                if any(n.value == collector for n in F.names_in(target.body)):
                    ctx.todo(M.DS_COLLECTOR, f"{target.name.value}() uses a collector; make it return an iterable or a generator", original)
                    return None
                args = ", ".join(f"v{i}" for i in range(conv.values))
                return cst.parse_expression(f"lambda {args}: {target.name.value}({args}, None)")
            if packed and conv.values > 1:
                return cst.parse_expression(f"lambda {pack_name}: {target.name.value}(*{pack_name})")
            return updated
        if self._plain_callable(original) or self._method_reference(original):
            return updated
        ctx.todo(self.codes["function"], f"cannot tell whether this is a function or a Flink function object; pass a lambda, a def or a Flink function class of this module", original)
        return None

    def _plain_callable(self, original: cst.BaseExpression) -> bool:
        """A builtin or ``operator`` callable (``str.upper``, ``len``, ``operator.itemgetter(0)``),
        where the model accepts any callable (PyFlink does: ``callable(func)``)."""
        if not self.model.ANY_CALLABLE:
            return False
        node = original.func if isinstance(original, cst.Call) else original
        for q in self.resolver.qualified_names(node):
            if q.startswith(("builtins.", "operator.")) or (isinstance(original, cst.Call) and q == "functools.partial"):
                return True
        return False

    def _method_reference(self, original: cst.BaseExpression) -> bool:
        """``Cls.method`` or ``instance.method`` (``instance = Cls(...)``, its only binding) where
        ``Cls`` is a class of this module or a sibling module that defines ``method`` and is no
        Flink function class (the converter rewrites those): a plain callable, which PyFlink
        calls as it is, where the model accepts any callable."""
        if not self.model.ANY_CALLABLE or not isinstance(original, cst.Attribute):
            return False
        owner = original.value
        if isinstance(owner, cst.Name) and not isinstance(self.resolver.local_def(owner), cst.ClassDef):
            value = self.resolver.single_value(owner)
            if not isinstance(value, cst.Call):
                return False
            owner = value.func
        cls = self.resolver.local_def(owner)
        if cls is None and isinstance(owner, (cst.Name, cst.Attribute)):
            cls = foreign.lookup(self.resolver, owner, self.path)
        if not isinstance(cls, cst.ClassDef) or id(cls) in self.classes:
            return False
        return F._method(cls, original.attr.value) is not None

    def key_function(self, ctx: Context, seg: Segment) -> Optional[cst.BaseExpression]:
        args = list(zip(seg.original.args, seg.updated.args))
        if not args:
            ctx.todo(M.DS_UNSUPPORTED, f"{seg.method}() without keys", seg.original)
            return None
        if any(o.star or o.keyword is not None for o, _ in args):
            ctx.todo(M.DS_UNSUPPORTED, f"{seg.method}(): keys given with * or keywords", seg.original)
            return None
        first_o, first_u = args[0][0].value, args[0][1].value
        is_fn = isinstance(first_u, cst.Lambda) or self.class_of(first_o) is not None or self.def_of(first_o) is not None
        if is_fn:
            if len(args) > 1:
                ctx.todo(M.DS_UNSUPPORTED, f"{seg.method}(): a key function with further keys", seg.original)
                return None
            return self.adapt_function(ctx, first_o, first_u, F.CONVENTIONS["key"], False, "pair")
        fields = []
        for o, u in args:
            v = o.value
            if isinstance(v, cst.Name):
                bound = self.resolver.single_value(v)
                v = bound if bound is not None else v
            if not isinstance(v, (cst.Integer, cst.UnaryOperation)) and not isinstance(u.value, cst.Integer):
                ctx.todo(M.DS_UNSUPPORTED, f"{seg.method}(): key is neither a field index nor a function of this module", o.value)
                return None
            fields.append(cst.Module([]).code_for_node(u.value))
        t = "t"
        if len(fields) == 1:
            return cst.parse_expression(f"lambda {t}: {t}[{fields[0]}]")
        return cst.parse_expression(f"lambda {t}: ({', '.join(f'{t}[{f}]' for f in fields)})")

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute):
        parent = self.resolver.parent(original)
        if isinstance(parent, cst.Call) and parent.func is original:
            return updated  # a method call: leave_Call decides
        t = self.resolver.type_of(original.value)
        if t in self.model.COLUMN_TYPES:
            return updated  # a Table's column: df.a on the DataFrame it becomes
        if t is not None and original.attr.value not in self.model.CONVERTED_ATTRIBUTES.get(t, ()):
            self.mark(original, "todo", self.codes["unsupported"], f"attribute .{original.attr.value} of a Flink {t} has no Spark counterpart")
        return updated

    # -- calls --------------------------------------------------------------------------------
    def _api_name(self, typ: Optional[str], method: Optional[str] = None) -> str:
        """The API a type (or, for a receiver of unknown type, a method name) belongs to, in
        messages: the generation's, or another its model names (PyFlink's Table API)."""
        api_of = self.model.api_name_of
        return api_of(typ, method) if api_of is not None else self.api_name

    def _continued(self, original: cst.Call, ret: str) -> bool:
        parent = self.resolver.parent(original)
        if not (isinstance(parent, cst.Attribute) and parent.value is original):
            return False
        grand = self.resolver.parent(parent)
        return isinstance(grand, cst.Call) and grand.func is parent and parent.attr.value in self.model.CONTINUATIONS.get(ret, ())

    def _gather(self, original: cst.Call, updated: cst.Call) -> list[Segment]:
        segs = []
        o, u = original, updated
        while True:
            segs.append(Segment(o.func.attr.value, o, u))  # type: ignore[attr-defined]
            inner_o, inner_u = o.func.value, u.func.value  # type: ignore[attr-defined]
            if isinstance(inner_o, cst.Call) and isinstance(inner_o.func, cst.Attribute) and isinstance(inner_u, cst.Call) and isinstance(inner_u.func, cst.Attribute):
                t = self.resolver.type_of(inner_o)
                if t in self.model.CONTINUATIONS and o.func.attr.value in self.model.CONTINUATIONS[t]:  # type: ignore[attr-defined]
                    o, u = inner_o, inner_u
                    continue
            break
        segs.reverse()
        return segs

    def _lookup(self, typ: str, method: str) -> Optional[Rule]:
        for t in self.model.supertypes(typ):
            rule = self.table.get((t, method))
            if rule is not None:
                return rule
        return None

    def visit_Try(self, node: cst.Try) -> None:
        if G.catches_import_error(node) and any(G.flink_import(n) for n in nodes(node.body, cst.Import, cst.ImportFrom)):
            self.mark(node, "note", M.GUARDED_IMPORT, "a Flink import guarded by try/except ImportError: once the "
                      "import is gone the try always succeeds, so its except ImportError fallback no longer runs")

    def _imported_from_elsewhere(self, node: cst.BaseExpression) -> bool:
        """True when ``node`` names an import of a module that is not Flink's (the shim, pandas...).
        An object a ``from`` import takes from a module of the user's own (``from config import
        t_env``) is not: it may well be a Flink object (only libraries' objects are known not to be)."""
        try:
            names = self.resolver.qualified_name_set(node)
        except KeyError:
            return False
        imported = [q.name for q in names if q.source is QualifiedNameSource.IMPORT]
        if not imported or any(module_generation(name) is not None for name in imported):
            return False
        head = node
        while isinstance(head, (cst.Attribute, cst.Call)):
            head = head.value if isinstance(head, cst.Attribute) else head.func
        bindings = self.resolver.referents(head) if isinstance(head, cst.Name) else []
        own = [b for b in bindings if isinstance(b.node, cst.ImportFrom) and not _library_import(b.node)]
        return not own

    def leave_Call(self, original: cst.Call, updated: cst.Call):
        func = original.func
        mixed = self.resolver.mixed_types(func.value) if isinstance(func, cst.Attribute) else []
        if mixed:
            self.mark(
                original,
                "todo",
                self.codes["unknown_receiver"],
                f".{func.attr.value}() on '{self.resolver.module.code_for_node(func.value)}', which is bound to streams of different kinds"
                f" ({', '.join(mixed)}): one conversion cannot fit them all (a helper called with each, say): give each"
                " its own variable or helper",
            )
            return updated
        recv_t = self.resolver.type_of(func.value) if isinstance(func, cst.Attribute) else None
        if recv_t is not None and "table_stream" in self.codes:
            bridge = self.table_bridge(func.value)  # e.g. the result of async I/O on a Table API stream
            if bridge is not None:
                if not isinstance(func.value, cst.Call):  # marked at the chain's first call (the bridge: its own TODO)
                    self._mark_table_stream(original, f".{func.attr.value}()", bridge)
                return updated
        if recv_t is not None:
            method = func.attr.value
            known, ret = self.model.method_return(recv_t, method)
            if not known and method in self.model.CONVERTED_ATTRIBUTES.get(recv_t, ()):
                return updated  # converted code (env.createDataFrame(...) of an environment that kept its TODO)
            if not known:
                self.mark(original, "todo", self.codes["unsupported"], f"{recv_t}.{method}() is not part of Flink's {self._api_name(recv_t)} API")
                return updated
            if ret in self.model.CONTINUATIONS and self._continued(original, ret):
                return updated
            segments = self._gather(original, updated)
            head_t = self.resolver.type_of(segments[0].original.func.value)  # type: ignore[attr-defined]
            modifiers = [s for s in segments[1:] if s.method in self.model.MODIFIERS]
            core = [segments[0]] + [s for s in segments[1:] if s.method not in self.model.MODIFIERS]
            rule = self._lookup(head_t or recv_t, segments[0].method)
            if rule is None or rule.id in self.disabled:
                hint = f"rule {rule.id} is disabled (--ignore/--select)" if rule is not None else self._hint(head_t or recv_t, segments[0].method)
                self.mark(original, "todo", self.codes["unsupported"], f"{head_t}.{segments[0].method}() has no conversion" + (f": {hint}" if hint else ""))
                return updated
            site = Site(rule, head_t or recv_t, core, modifiers)
            for mod in modifiers:
                if mod.method == "with_broadcast_set" and len(mod.updated.args) == 2:
                    site.broadcast_sets.append((mod.updated.args[0].value, mod.updated.args[1].value))
            return self._apply(rule, site, original, updated)
        if recv_t is None and isinstance(func, cst.Attribute) and "table_stream" in self.codes and self._has_bridges():
            bridge = self.table_bridge(func.value)  # data_stream.map(...), .print(): any method of such a stream
            chained = isinstance(func.value, cst.Call)  # marked at the chain's first call (the bridge: its own TODO)
            if bridge is not None and not chained:
                self._mark_table_stream(original, f".{func.attr.value}()", bridge)
                return updated
        if isinstance(func, cst.Attribute) and func.attr.value in self.model.DISTINCTIVE_METHODS:
            if self._imported_from_elsewhere(func.value):
                return updated  # e.g. f2s.read_csv(...) of an already converted file, pandas' pd.read_csv
            if self.resolver.plain_object(func.value):
                return updated  # Table().key_by(len): an object of the user's own class
            if isinstance(func.value, cst.Call) and any(m[0] is func.value for m in self.marks):
                return updated  # a method of what a marked call gives: its TODO says it (.set_string(...).set_string(...))
            bridge = self.table_bridge(func.value)
            if bridge is not None and "table_stream" in self.codes:
                self._mark_table_stream(original, f".{func.attr.value}()", bridge)
                return updated
            self.mark(
                original,
                "todo",
                self.codes["unknown_receiver"],
                f".{func.attr.value}() looks like Flink's {self._api_name(None, func.attr.value)} API but the receiver's type could not be"
                " followed (attribute, container or another module): convert it by hand",
            )
            return updated
        q = self.resolver.qualified_name(func)
        unconverted = self.model.UNCONVERTED_CALLS
        if q in unconverted:
            bridge = self.table_bridge(original)
            if bridge is not None and "table_stream" in self.codes:
                self._mark_table_stream(original, f"{self.resolver.module.code_for_node(func)}()", bridge)
                return updated
            self.mark(original, "todo", self.codes["unsupported"], unconverted[q])
            return updated
        if q in self.model.ENTRY_POINTS:
            rule = self.table.get(("flink", q.rsplit(".", 1)[1]))
            if rule is not None and rule.id in self.disabled:
                self.mark(original, "todo", self.codes["unsupported"], f"{q}() not converted: rule {rule.id} is disabled (--ignore/--select)")
            if rule is None or rule.id in self.disabled:
                return updated
            site = Site(rule, "flink", [Segment(q.rsplit(".", 1)[1], original, updated)], [])
            return self._apply(rule, site, original, updated)
        return updated

    def _mark_table_stream(self, original: cst.Call, what: str, bridge: cst.Call) -> None:
        self.mark(original, "todo", self.codes["table_stream"], self.table_stream_message(what, bridge))

    def table_stream_message(self, what: str, bridge: cst.Call) -> str:
        """The TODO of ``what`` on a stream that comes from the Table API call ``bridge``."""
        return (
            f"{what} on a stream that comes from the Table API ({self.resolver.module.code_for_node(bridge.func)}()):"
            " the Table API part is not converted yet; convert this stream with it"
        )

    def _has_bridges(self) -> bool:
        """Whether the module names a Table-to-DataStream bridge at all (a cheap filter before
        following the stream of every call whose receiver's type is unknown)."""
        if self._bridges is None:
            names = self.model.TABLE_BRIDGES

            class _Find(cst.CSTVisitor):
                found = False

                def visit_Attribute(self, node: cst.Attribute) -> None:
                    _Find.found = _Find.found or node.attr.value in names

            self.resolver.module.visit(_Find())
            self._bridges = _Find.found
        return self._bridges

    def table_bridge(self, expr: cst.BaseExpression) -> Optional[cst.Call]:
        """The Table API call (``t_env.to_data_stream(...)``) a stream expression may come from,
        as the generation's program model says (None for a generation without a Table API)."""
        return self.model.table_bridge(self.resolver, expr) if self.model.table_bridge is not None else None

    def _already_marked(self, node: cst.CSTNode, text: str) -> bool:
        """Whether the statement of ``node`` carries flink2spark TODOs in the input (a file
        converted before, with constructs left as they were) but not ``text``: a new TODO
        there would only repeat, in other words, what the earlier conversion said."""
        stmt = node
        while stmt is not None and not isinstance(stmt, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            stmt = self.resolver.parent(stmt)
        if stmt is None:
            return False
        comments = [ln.comment.value for ln in stmt.leading_lines if ln.comment is not None]  # type: ignore[attr-defined]
        if self.resolver.module.body and self.resolver.module.body[0] is stmt:
            comments += list(self._header_comments)
        return text not in comments and any(c.startswith("# TODO(flink2spark):") for c in comments)

    def _hint(self, typ: str, method: str) -> Optional[str]:
        hints = self.model.HINTS
        return hints.get(f"{typ}.{method}") or hints.get(typ) or hints.get(method)

    def _refused(self, rule: Rule, ctx: Context, result: object) -> Optional[str]:
        """Why ``result`` is no valid result of ``rule`` (transpiler/results.py); None if it is."""
        if result is REMOVE or isinstance(result, cst.BaseExpression):
            return None
        if isinstance(result, Todo):
            return None if any(t is result for t in ctx.todos) else "a TODO result without a TODO written"
        if isinstance(result, Keep):
            return None if result.reason.strip() else "kept with no reason"
        return f"returned {result!r}"

    def _apply(self, rule: Rule, site: Site, original: cst.Call, updated: cst.Call):
        ctx = Context(self, site, original)
        result = rule.convert(ctx)  # type: ignore[misc]
        refused = self._refused(rule, ctx, result)
        if refused is not None:
            # the construct would stay as it is with nothing said: a bug of the rule
            if strict():
                raise RuleContractError(f"rule {rule.id} gave no result ({refused}) for {self.resolver.module.code_for_node(original)[:200]}")
            self.mark(original, "todo", M.NO_RESULT, f"rule {rule.id} gave no result for this call ({refused}, a flink2spark bug: please report it); convert it by hand")
            return updated
        if isinstance(result, (Todo, Keep)):
            return updated
        self.applied.append(rule.id)
        if result is REMOVE:
            parent = self.resolver.parent(original)
            if isinstance(parent, cst.Expr):
                self._remove_exprs.add(id(parent))
                return updated
            return updated
        if site.broadcast_sets and not site.broadcast_used:
            self.mark(original, "todo", self.codes["unsupported"], "with_broadcast_set() on an operator without a Flink function class")
        for mod in site.modifiers:
            if mod.method == "name" and mod.updated.args and self.model.KEEP_NAMES:
                result = cst.Call(func=cst.Attribute(value=result, attr=cst.Name("setName")), args=[mod.updated.args[0].with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT)])
            elif mod.method == "set_parallelism":
                arg = mod.updated.args[0].value if mod.updated.args else None
                if not (isinstance(arg, cst.Integer) and arg.value == "1") and self.codes["parallelism"]:
                    self.mark(original, "note", self.codes["parallelism"], "operator parallelism dropped; Spark decides the number of tasks")
        if updated.lpar and isinstance(result, cst.BaseExpression) and not result.lpar:
            # the call was written in parentheses (a chain over several lines, which parts of it
            # the rule kept may still span): they stay, without their comments (moved above)
            result = result.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        return result

    # -- statements ------------------------------------------------------------------------
    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        if self._changed[-1]:  # something in the line was rewritten: its comments must not be lost
            updated = _keep_comments(original, updated)
        if not any(id(s) in self._remove_exprs for s in original.body):
            return updated
        body = [u for o, u in zip(original.body, updated.body) if id(o) not in self._remove_exprs]
        if body:
            body[-1] = body[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
            return updated.with_changes(body=body)
        new = updated.with_changes(body=[cst.Pass()])
        self._removed_lines[id(new)] = new
        return new

    def _drop_removed(self, stmts: Sequence[cst.BaseStatement]) -> tuple[list[cst.BaseStatement], list[cst.EmptyLine]]:
        out: list[cst.BaseStatement] = []
        carry: list[cst.EmptyLine] = []
        for s in stmts:
            if id(s) in self._removed_lines:
                carry.extend(ln for ln in s.leading_lines if ln.comment is not None)  # type: ignore[attr-defined]
                continue
            if carry:
                moved = s.with_changes(leading_lines=[*carry, *s.leading_lines])  # type: ignore[attr-defined]
                self._unread.moved(s, moved)
                s, carry = moved, []
            out.append(s)
        return out, carry

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock):
        body, carry = self._drop_removed(updated.body)
        if not body:
            return updated.with_changes(body=[cst.SimpleStatementLine([cst.Pass()], leading_lines=carry)])
        return updated.with_changes(body=body, footer=[*carry, *updated.footer])

    def leave_Module(self, original: cst.Module, updated: cst.Module):
        if self._replacements:
            body = [self._replacements.get(u.name.value, u) if isinstance(u, cst.ClassDef) else u for u in updated.body]
            for old, new in zip(updated.body, body):
                if new is None:  # remove_class
                    self._removed_lines[id(old)] = old
            updated = updated.with_changes(body=[old if new is None else new for old, new in zip(updated.body, body)])
        body, carry = self._drop_removed(updated.body)
        updated = updated.with_changes(body=body, footer=[*carry, *updated.footer])
        return U.drop_unread(updated, self._unread, set(self._stmt_comments))


class _Replace(V.Transformer):
    def __init__(self, name: str, node: cst.BaseExpression):
        self.name, self.node = name, node

    def leave_Name(self, original, updated):
        return self.node if updated.value == self.name else updated
