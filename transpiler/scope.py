"""Scopes of a module: which binding each name reads, and the qualified names of expressions.

The answers are libcst's ``ScopeProvider`` and ``QualifiedNameProvider`` answers, node for node
(the converter's output depends on them), computed by one walk of our own instead: libcst's
provider walks the module twice (expression contexts, then scopes) through its visitor
machinery and stores a scope for every node, several times the cost of this walk.

The model is libcst's (``libcst/metadata/scope_provider.py``), ported with its rules and
quirks, because the output must not change:

- module, class, function, lambda and comprehension scopes; a class's names are not visible
  from the scopes inside it; ``global``/``nonlocal`` send a name's assignments to the module's
  or the enclosing scope; parameter defaults and annotations, decorators and return
  annotations are read in the enclosing scope; a comprehension's first iterable too.
- each scope counts its assignment-like statements as the walk leaves them; a read sees the
  assignments of its own scope counted before it (``x = x + 1`` in a function reads the
  enclosing ``x``), and when it sees none there, the enclosing scope's.
- a walrus target binds in the scope where it stands (a comprehension's too); ``match``
  captures, ``del x`` and names that are only read are reads.
- ``import a.b`` binds ``a.b`` and ``a``; a read of ``a.b.c`` is then a read of ``a.b`` (the
  Attribute node); a name read in a string annotation (``x: "Table"``, ``List["Table"]``,
  ``cast("Table", x)``) is a read whose node is the string.
- qualified names: an import's (``from pyflink.datastream import X as Y``: ``Y.attr`` is
  ``pyflink.datastream.X.attr``), a builtin's (``builtins.len``), a local's (``f.<locals>.x``).

``tests/test_scope.py`` compares every answer with libcst's on the fixtures, the examples and
snippets of each rule above.
"""

from __future__ import annotations

import builtins
from typing import Iterator, Optional, Union

import libcst as cst
from libcst.helpers import get_full_name_for_node
from libcst.metadata import QualifiedName, QualifiedNameSource

from flink2spark.transpiler.visitors import children, node_fields

LOAD, STORE, DEL, NONE = 0, 1, 2, 3  # expression contexts (NONE: a name of a string annotation)

# -- bindings and reads -------------------------------------------------------------------------
class Access:
    """A read of a name: ``node`` (a Name; the Attribute ``a.b`` of a read of ``import a.b``; the
    string of a string annotation), the scope it stands in, and the bindings it may read."""

    __slots__ = ("node", "scope", "index", "seq", "referents")

    def __init__(self, node: cst.CSTNode, scope: "Scope", index: int, seq: int) -> None:
        self.node = node
        self.scope = scope
        self.index = index  # the scope's assignment count when the walk read it
        self.seq = seq  # the walk's order
        self.referents: dict[Binding, None] = {}

    def record_assignments(self, name: str) -> None:
        assignments = self.scope.resolve(name, self.scope)
        # the assignments of its own scope that come later are not read here
        previous = [a for a in assignments if a.scope is not self.scope or a.index < self.index]
        if not previous and assignments and self.scope.parent is not self.scope:
            previous = list(self.scope.parent.resolve(name, self.scope))
        for a in previous:
            self.referents[a] = None


class Binding:
    """A binding of ``name`` in ``scope``: ``node`` is the Name target, FunctionDef, ClassDef,
    Param, Import or ImportFrom (None for a builtin); ``references`` the reads of it."""

    __slots__ = ("name", "scope", "node", "index", "seq", "_accesses")
    builtin = False

    def __init__(self, name: str, scope: "Scope", node: Optional[cst.CSTNode], index: int, seq: int) -> None:
        self.name = name
        self.scope = scope
        self.node = node
        self.index = index
        self.seq = seq
        self._accesses: dict[Access, None] = {}

    @property
    def references(self) -> list[Access]:
        return sorted(self._accesses, key=lambda a: a.seq)

    def record_accesses(self, accesses: list[Access]) -> None:
        earlier = []
        for access in accesses:
            if access.scope is not self.scope or self.index < access.index:
                self._accesses[access] = None
            else:
                earlier.append(access)
        if earlier and self.scope.parent is not self.scope:
            # reads before this assignment in its own scope read the enclosing scope's
            for shadowed in list(self.scope.parent.resolve(self.name, self.scope.parent)):
                shadowed.record_accesses(earlier)

    def qualified_names(self, full_name: str) -> set[QualifiedName]:
        prefix = self.scope.name_prefix
        return {QualifiedName(f"{prefix}.{full_name}" if prefix else full_name, QualifiedNameSource.LOCAL)}


class BuiltinBinding(Binding):
    __slots__ = ()
    builtin = True

    def qualified_names(self, full_name: str) -> set[QualifiedName]:
        return {QualifiedName(f"builtins.{self.name}", QualifiedNameSource.BUILTIN)}


class ImportBinding(Binding):
    __slots__ = ()

    def qualified_names(self, full_name: str) -> set[QualifiedName]:
        node = self.node
        module = ""
        if isinstance(node, cst.ImportFrom):
            if node.module:
                module = get_full_name_for_node(node.module) or ""
            if node.relative:
                module = "." * len(node.relative) + module
        results: set[QualifiedName] = set()
        if isinstance(node.names, cst.ImportStar):  # type: ignore[union-attr]
            return results
        for alias in node.names:  # type: ignore[union-attr]
            real_name = get_full_name_for_node(alias.name)
            if not real_name:
                continue
            # a dotted import: the longest prefix that full_name starts with
            parts = real_name.split(".")
            for real in [".".join(parts[:i]) for i in range(len(parts), 0, -1)]:
                as_name = real
                if module and module.endswith("."):
                    real = f"{module}{real}"  # from . import a: .a
                elif module:
                    real = f"{module}.{real}"
                if alias.asname:
                    evaluated = alias.evaluated_alias
                    if evaluated is not None:
                        as_name = evaluated
                if full_name.startswith(as_name):
                    remaining = full_name.split(as_name, 1)[1]
                    if remaining and not remaining.startswith("."):
                        continue
                    remaining = remaining.lstrip(".")
                    results.add(QualifiedName(f"{real}.{remaining}" if remaining else real, QualifiedNameSource.IMPORT))
                    break
        return results


# -- scopes -----------------------------------------------------------------------------------
class Scope:
    """libcst's scope model: ``assignments`` of its own, ``parent`` (the builtins' scope is its
    own parent), the count of assignment-like statements left so far, the reads in it."""

    kind = "local"

    def __init__(self, parent: Optional["Scope"], node: Optional[cst.CSTNode] = None, name: Optional[str] = None) -> None:
        self.parent: Scope = parent if parent is not None else self
        self.globals: Scope = parent.globals if parent is not None else self  # type: ignore[assignment]
        self.node = node
        self.name = name
        self.assignments: dict[str, list[Binding]] = {}
        self.count = 0
        self.overwrites: dict[str, Scope] = {}  # global/nonlocal names -> the scope they bind in
        self.accesses_by_name: dict[str, list[Access]] = {}
        self.accesses_by_node: dict[int, list[Access]] = {}
        self.name_prefix = self._prefix()

    def _prefix(self) -> str:
        return ".".join(filter(None, [self.parent.name_prefix, self.name, "<locals>"]))

    def visible_from_children(self) -> bool:
        return True

    def next_visible_parent(self, first: Optional["Scope"] = None) -> "Scope":
        parent = first if first is not None else self.parent
        while not parent.visible_from_children():
            parent = parent.parent
        return parent

    def target(self, name: str) -> "Scope":
        """The scope an assignment of ``name`` here binds in."""
        if name in self.overwrites:
            return self.next_visible_parent(self.overwrites[name]).target(name)
        return self

    def __contains__(self, name: str) -> bool:
        if name in self.overwrites:
            return name in self.overwrites[name]
        if name in self.assignments:
            return len(self.assignments[name]) > 0
        return name in self.next_visible_parent()

    def resolve(self, name: str, from_scope: "Scope") -> list[Binding]:
        """What a read of ``name`` in ``from_scope`` (this scope or one inside it) may see."""
        if name in self.overwrites:
            return self.next_visible_parent(self.overwrites[name]).resolve(name, from_scope)
        if name in self.assignments:
            return self.assignments[name]
        return self.next_visible_parent().resolve(name, from_scope)

    def __getitem__(self, name: str) -> list[Binding]:
        return self.resolve(name, self)

    def record(self, binding_class, name: str, node: cst.CSTNode, seq: int) -> None:
        target = self.target(name)
        target.assignments.setdefault(name, []).append(binding_class(name, target, node, target.count, seq))

    def global_overwrite(self, name: str) -> None:
        self.overwrites[name] = self.globals

    def nonlocal_overwrite(self, name: str) -> None:
        self.overwrites[name] = self.parent

    def qualified_names(self, node: cst.CSTNode) -> set[QualifiedName]:
        """libcst's ``Scope.get_qualified_names_for``."""
        accesses = self.accesses_by_node.get(id(node))
        if accesses:  # a read: what the bindings it reads are called
            return {q for access in accesses for r in access.referents for q in r.qualified_names(r.name)}
        full_name = get_full_name_for_node(node)
        if full_name is None:
            return set()
        assignments: list[Binding] = []
        prefix: Optional[str] = full_name
        while prefix:
            if prefix in self:
                assignments = self[prefix]
                break
            idx = prefix.rfind(".")
            prefix = None if idx == -1 else prefix[:idx]
        for a in assignments:
            if not a.builtin and _is_assignment(node, a.node):  # type: ignore[arg-type]
                return a.qualified_names(full_name)
        results: set[QualifiedName] = set()
        for a in assignments:
            results |= a.qualified_names(full_name)
        return results


class BuiltinScope(Scope):
    kind = "builtin"

    def __init__(self, globals_: Scope) -> None:
        super().__init__(None)
        self.globals = globals_

    def _prefix(self) -> str:
        return ""

    def __contains__(self, name: str) -> bool:
        return hasattr(builtins, name)

    def resolve(self, name: str, from_scope: Scope) -> list[Binding]:
        if name in self.assignments:
            return self.assignments[name]
        if hasattr(builtins, name):
            self.assignments[name] = [BuiltinBinding(name, self, None, -1, -1)]
            return self.assignments[name]
        return []


class GlobalScope(Scope):
    kind = "global"

    def __init__(self) -> None:
        super().__init__(BuiltinScope(self))

    def _prefix(self) -> str:
        return ""

    def target(self, name: str) -> Scope:
        return self

    def __contains__(self, name: str) -> bool:
        if name in self.assignments:
            return len(self.assignments[name]) > 0
        return name in self.next_visible_parent()

    def resolve(self, name: str, from_scope: Scope) -> list[Binding]:
        if name in self.assignments:
            return self.assignments[name]
        return self.next_visible_parent()[name]

    def global_overwrite(self, name: str) -> None:
        pass

    def nonlocal_overwrite(self, name: str) -> None:
        raise NotImplementedError("nonlocal declaration not allowed at module level")


class FunctionScope(Scope):
    kind = "function"


class ClassScope(Scope):
    kind = "class"

    def visible_from_children(self) -> bool:
        return False  # (libcst: except from a PEP 695 annotation scope, which Python 3.11 has not)

    def _prefix(self) -> str:
        return ".".join(filter(None, [self.parent.name_prefix, self.name]))


class ComprehensionScope(Scope):
    kind = "comprehension"

    def _prefix(self) -> str:
        return ".".join(filter(None, [self.parent.name_prefix, "<comprehension>"]))


def _is_assignment(node: cst.CSTNode, assignment_node: cst.CSTNode) -> bool:
    """Whether ``node`` is the binding node, or a name of the import that binds."""
    if node is assignment_node:
        return True
    if isinstance(assignment_node, (cst.Import, cst.ImportFrom)):
        aliases = assignment_node.names
        if isinstance(aliases, cst.ImportStar):
            return False
        for alias in aliases:
            if alias.name is node or (alias.asname is not None and alias.asname.name is node):
                return True
    return False


def _dotted_names(node: Union[cst.Attribute, cst.Name]) -> Iterator[tuple[str, cst.CSTNode]]:
    """``a.b.c`` -> ("a.b.c", node), ("a.b", its value), ("a", the Name)."""
    if isinstance(node, cst.Name):
        yield node.value, node
        return
    value = node.value
    if isinstance(value, cst.Call):
        value = value.func
        if isinstance(value, (cst.Attribute, cst.Name)):
            yield from _dotted_names(value)
    elif isinstance(value, (cst.Attribute, cst.Name)):
        names = _dotted_names(value)
        first = next(names, None)
        if first is None:
            return
        yield f"{first[0]}.{node.attr.value}", node
        yield first
        yield from names


# statements and parts of them that count as one assignment of their scope once walked
_ASSIGNMENT_LIKE = frozenset({
    cst.AnnAssign, cst.AsName, cst.Assign, cst.AugAssign, cst.ClassDef, cst.CompFor, cst.FunctionDef, cst.Global,
    cst.Import, cst.ImportFrom, cst.NamedExpr, cst.Nonlocal, cst.Parameters, cst.WithItem,
})


# -- the walk ---------------------------------------------------------------------------------
class Scopes:
    """The scopes of ``module``: ``scope_of`` (every node libcst gives a scope: not tokens and
    whitespace, an attribute's name, an import's names, a keyword argument's name...) and the
    read of each name (``access_of``)."""

    def __init__(self, module: cst.Module) -> None:
        self.scope_of: dict[int, Scope] = {}
        self.access_of: dict[int, Access] = {}  # id(Name) -> its read, when the read's node is that Name
        self.globals = GlobalScope()
        self._scope: Scope = self.globals
        self._seq = 0
        self._deferred: list[tuple[Access, Optional[cst.Attribute], Optional[cst.CSTNode]]] = []
        self._attribute = [None]  # the outermost Attribute being walked, per call
        self._annotation = [False]
        self._type_hint = [False]
        self._ignored_subscripts = 0  # Literal[...] being walked: its strings are no annotations
        self._string: Optional[cst.CSTNode] = None  # the string annotation being walked
        handlers = {
            cst.Import: self._import, cst.ImportFrom: self._import, cst.Attribute: self._attribute_node,
            cst.Call: self._call, cst.Annotation: self._annotation_node, cst.SimpleString: self._simple_string,
            cst.ConcatenatedString: self._concatenated_string,
            cst.Subscript: self._subscript, cst.Name: self._name, cst.FunctionDef: self._function,
            cst.Lambda: self._lambda, cst.Param: self._param, cst.Arg: self._arg, cst.ClassDef: self._class,
            cst.Global: self._global, cst.Nonlocal: self._nonlocal, cst.ListComp: self._comprehension,
            cst.SetComp: self._comprehension, cst.DictComp: self._comprehension, cst.GeneratorExp: self._comprehension,
            cst.For: self._for, cst.Assign: self._assign, cst.AnnAssign: self._ann_assign,
            cst.AugAssign: self._target_value, cst.NamedExpr: self._target_value, cst.AsName: self._as_name,
            cst.CompFor: self._comp_for, cst.Del: self._del,
        }
        self._handlers = handlers
        self._visit(module, LOAD)
        self._infer_accesses()

    # -- walking --------------------------------------------------------------------------
    def _visit(self, node: cst.CSTNode, ctx: int) -> None:
        handler = self._handlers.get(type(node))
        if handler is None:
            self._children(node, ctx)
        else:
            handler(node, ctx)
        scope = self._scope
        if self._string is None:  # the nodes of a string annotation's parse are not the module's
            self.scope_of[id(node)] = scope
        if type(node) in _ASSIGNMENT_LIKE:
            scope.count += 1

    def _children(self, node: cst.CSTNode, ctx: int) -> None:
        visit = self._visit
        for child in children(node, node_fields(node)):
            visit(child, ctx)

    def _in_scope(self, scope: Scope):
        outer, self._scope = self._scope, scope
        return outer

    def _import(self, node: Union[cst.Import, cst.ImportFrom], ctx: int) -> None:
        if isinstance(node.names, cst.ImportStar):
            return
        scope = self._scope
        for alias in node.names:
            self.scope_of[id(alias)] = scope
            as_name = alias.asname.name if alias.asname is not None else alias.name
            for name, _ in _dotted_names(as_name):  # type: ignore[arg-type]
                self._seq += 1
                scope.record(ImportBinding, name, node, self._seq)

    def _attribute_node(self, node: cst.Attribute, ctx: int) -> None:
        stack = self._attribute
        if stack[-1] is None:
            stack[-1] = node
        self._visit(node.value, self._load(ctx))  # not the attribute's name
        if stack[-1] is node:
            stack[-1] = None

    def _qualified(self, node: cst.CSTNode) -> set[str]:
        return {q.name for q in self._scope.qualified_names(node)}

    def _call(self, node: cst.Call, ctx: int) -> None:
        self._attribute.append(None)
        self._type_hint.append(False)
        try:
            names = self._qualified(node)
            if "typing.NewType" in names or "typing.TypeVar" in names:
                self._visit(node.func, ctx)
                self._type_hint[-1] = True
                for arg in node.args[1:]:
                    self._visit(arg, ctx)
            elif "typing.cast" in names:
                self._visit(node.func, ctx)
                if node.args:
                    self._type_hint.append(True)
                    self._visit(node.args[0], ctx)
                    self._type_hint.pop()
                    for arg in node.args[1:]:
                        self._visit(arg, ctx)
            else:
                self._children(node, ctx)
        finally:
            self._attribute.pop()
            self._type_hint.pop()

    def _annotation_node(self, node: cst.Annotation, ctx: int) -> None:
        self._annotation.append(True)
        self._children(node, ctx)
        self._annotation.pop()

    def _simple_string(self, node: cst.SimpleString, ctx: int) -> None:
        self._string_annotation(node)

    def _concatenated_string(self, node: cst.ConcatenatedString, ctx: int) -> None:
        if not self._string_annotation(node):
            self._children(node, ctx)

    def _string_annotation(self, node: Union[cst.SimpleString, cst.ConcatenatedString]) -> bool:
        """Reads the names of a string that is a type annotation; whether it was one."""
        if not ((self._type_hint[-1] or self._annotation[-1]) and not self._ignored_subscripts):
            return False
        value = node.evaluated_value
        if not value:
            return False
        top = self._string is None
        if top:
            self._string = node
        try:
            self._visit(cst.parse_module(value), NONE)  # type: ignore[arg-type]
        except cst.ParserSyntaxError:
            pass  # not Python: no names (as CPython)
        if top:
            self._string = None
        return True

    def _subscript(self, node: cst.Subscript, ctx: int) -> None:
        hint, ignored = False, False
        if isinstance(node.value, cst.Name):
            names = self._qualified(node.value)
            hint = any(q.startswith(("typing.", "typing_extensions.")) for q in names)
            ignored = "typing.Literal" in names or "typing_extensions.Literal" in names
        self._type_hint.append(hint)
        self._ignored_subscripts += ignored
        inner = self._load(ctx)
        self._visit(node.value, inner)
        for element in node.slice:
            self._visit(element, inner)
        self._type_hint.pop()
        self._ignored_subscripts -= ignored

    def _name(self, node: cst.Name, ctx: int) -> None:
        scope = self._scope
        self._seq += 1
        if ctx == STORE:
            scope.record(Binding, node.value, node, self._seq)
            return
        access = Access(node, scope, scope.count, self._seq)
        self._deferred.append((access, self._attribute[-1], self._string))

    def _function(self, node: cst.FunctionDef, ctx: int) -> None:
        scope = self._scope
        self._seq += 1
        scope.record(Binding, node.name.value, node, self._seq)
        self.scope_of[id(node.name)] = scope
        outer = self._in_scope(FunctionScope(scope, node, node.name.value))
        self._visit(node.params, ctx)
        self._visit(node.body, ctx)
        self._scope = outer
        for decorator in node.decorators:
            self._visit(decorator, ctx)
        if node.returns:
            self._visit(node.returns, ctx)

    def _lambda(self, node: cst.Lambda, ctx: int) -> None:
        outer = self._in_scope(FunctionScope(self._scope, node))
        self._visit(node.params, ctx)
        self._visit(node.body, ctx)
        self._scope = outer

    def _param(self, node: cst.Param, ctx: int) -> None:
        scope = self._scope
        self._seq += 1
        scope.record(Binding, node.name.value, node, self._seq)
        self.scope_of[id(node.name)] = scope
        self._scope = scope.parent  # a default and an annotation are read where the def stands
        for field in (node.default, node.annotation):
            if field:
                self._visit(field, ctx)
        self._scope = scope

    def _arg(self, node: cst.Arg, ctx: int) -> None:
        self._visit(node.value, ctx)  # not the keyword

    def _class(self, node: cst.ClassDef, ctx: int) -> None:
        scope = self._scope
        self._seq += 1
        scope.record(Binding, node.name.value, node, self._seq)
        self.scope_of[id(node.name)] = scope
        for decorator in node.decorators:
            self._visit(decorator, ctx)
        for base in node.bases:
            self._visit(base, ctx)
        for keyword in node.keywords:
            self._visit(keyword, ctx)
        outer = self._in_scope(ClassScope(scope, node, node.name.value))
        for statement in node.body.body:
            self._visit(statement, ctx)
        self._scope = outer

    def _global(self, node: cst.Global, ctx: int) -> None:
        for item in node.names:
            self._scope.global_overwrite(item.name.value)

    def _nonlocal(self, node: cst.Nonlocal, ctx: int) -> None:
        for item in node.names:
            self._scope.nonlocal_overwrite(item.name.value)

    def _comprehension(self, node: Union[cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp], ctx: int) -> None:
        for_in = node.for_in
        self._visit(for_in.iter, ctx)  # the first iterable is read outside
        self.scope_of[id(for_in)] = self._scope
        outer = self._in_scope(ComprehensionScope(self._scope, node))
        self._visit(for_in.target, self._store(ctx))
        self._scope.count += 1  # things from here on can read the target
        for condition in for_in.ifs:
            self._visit(condition, ctx)
        if for_in.inner_for_in:
            self._visit(for_in.inner_for_in, ctx)
        if isinstance(node, cst.DictComp):
            self._visit(node.key, ctx)
            self._visit(node.value, ctx)
        else:
            self._visit(node.elt, ctx)
        self._scope = outer

    def _comp_for(self, node: cst.CompFor, ctx: int) -> None:  # an inner ``for`` of a comprehension
        self._visit(node.target, self._store(ctx))
        self._visit(node.iter, ctx)
        for condition in node.ifs:
            self._visit(condition, ctx)
        if node.inner_for_in:
            self._visit(node.inner_for_in, ctx)

    def _for(self, node: cst.For, ctx: int) -> None:
        self._visit(node.target, self._store(ctx))
        self._scope.count += 1
        self._visit(node.iter, ctx)
        self._visit(node.body, ctx)
        if node.orelse:
            self._visit(node.orelse, ctx)

    @staticmethod
    def _store(ctx: int) -> int:
        return STORE if ctx != NONE else NONE  # in a string annotation every name is read

    @staticmethod
    def _load(ctx: int) -> int:
        return LOAD if ctx != NONE else NONE

    def _assign(self, node: cst.Assign, ctx: int) -> None:
        for target in node.targets:
            self._visit(target, self._store(ctx))
        self._visit(node.value, ctx)

    def _ann_assign(self, node: cst.AnnAssign, ctx: int) -> None:
        self._visit(node.target, self._store(ctx))
        self._visit(node.annotation, ctx)
        if node.value:
            self._visit(node.value, ctx)

    def _target_value(self, node: Union[cst.AugAssign, cst.NamedExpr], ctx: int) -> None:
        self._visit(node.target, self._store(ctx))
        self._visit(node.value, ctx)

    def _as_name(self, node: cst.AsName, ctx: int) -> None:
        self._visit(node.name, self._store(ctx))

    def _del(self, node: cst.Del, ctx: int) -> None:
        self._visit(node.target, DEL if ctx != NONE else NONE)

    # -- after the walk -------------------------------------------------------------------
    def _infer_accesses(self) -> None:
        """Bind each read to what it reads (libcst's ``infer_accesses``)."""
        groups: dict[tuple[int, str], tuple[Scope, list[Access]]] = {}
        for access, attribute, string in self._deferred:
            name = access.node.value  # type: ignore[union-attr]
            if attribute is not None:
                for dotted, node in _dotted_names(attribute):
                    if dotted in access.scope:
                        access.node = node
                        name = dotted
                        break
            if string is not None:
                access.node = string
            groups.setdefault((id(access.scope), name), (access.scope, []))[1].append(access)
            access.record_assignments(name)
            access.scope.accesses_by_name.setdefault(name, []).append(access)
            access.scope.accesses_by_node.setdefault(id(access.node), []).append(access)
            if isinstance(access.node, cst.Name):
                self.access_of[id(access.node)] = access
        for (_, name), (scope, accesses) in groups.items():
            for binding in list(scope.resolve(name, scope)):
                binding.record_accesses(accesses)
        self._deferred = []
