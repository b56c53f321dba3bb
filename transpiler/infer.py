"""What an expression *is*: qualified names and Flink API types, resolved with the module's
scopes (transpiler/scope.py: libcst's scope analysis, computed by a walk of our own).

Types flow through assignments (flow-insensitive: every binding of a name must agree),
helper-function parameters (from their call sites in the module) and return values.
"""

from __future__ import annotations

from typing import Iterable, Optional, Union

import libcst as cst
from libcst.metadata import QualifiedName

from flink2spark.transpiler.visitors import Visitor, children, node_fields, nodes, simple_statements
from flink2spark.transpiler import api_model as A
from flink2spark.transpiler.scope import Binding, Scopes

_RECURSION = object()
_OTHER = "an object of another kind"  # in mixed_types: what the resolver cannot type


def dotted(node: cst.BaseExpression) -> Optional[str]:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr.value}" if base else None
    return None


# What the converter rewrites or looks at in a subtree: attributes (methods and attributes of
# Flink objects), the names imports bind (Flink names, and the Flink functions a call names),
# parameters (their annotations), defs and classes (function classes) and try blocks (guarded
# imports); a call whose function is neither an attribute nor an imported name is left as it
# is (its arguments may not be). Statements and blocks are always visited (markers, removed
# statements).
_LIVE = frozenset({cst.Attribute, cst.Param, cst.FunctionDef, cst.ClassDef, cst.Try})
_BLOCKS = (cst.BaseStatement, cst.BaseSmallStatement, cst.BaseSuite, cst.Module)


def _imported_names(module: cst.Module) -> Optional[set[str]]:
    """The local names the module's import statements bind, at any depth; None when one of them
    is a star import (any name may then be imported)."""
    names: set[str] = set()
    for line in simple_statements(module):
        for small in line.body:
            if isinstance(small, cst.ImportFrom):
                if isinstance(small.names, cst.ImportStar):
                    return None
                names.update(bound_name(alias, True) for alias in small.names)
            elif isinstance(small, cst.Import):
                names.update(bound_name(alias, False) for alias in small.names)
    return names


def bound_name(alias: cst.ImportAlias, is_from: bool) -> str:
    """The local name an import binds: its alias, the name (``from m import name``), or the
    first part of a dotted module (``import a.b`` binds ``a``)."""
    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    name = dotted(alias.name) or ""
    return name if is_from else name.split(".")[0]


class Resolver:
    """Answers questions about nodes of the *original* module."""

    def __init__(self, module: cst.Module, model=A.MODEL, reassigned: bool = True):
        self.model = model
        # qualified names of the model's API start with one of these ("flink." for DataSet)
        self.prefixes: tuple[str, ...] = model.QUALIFIED_PREFIXES
        self.module = module
        self.path: Optional[str] = None  # the converted file's (transpiler/project.py finds its project's modules by it)
        self.reassigned = reassigned  # whether reaching_value follows names assigned several times
        self.scopes = Scopes(module)  # before the pre-pass: it follows names of calls
        self._types: dict[int, object] = {}
        self._in_progress: set[int] = set()
        self.star_modules: list[str] = []
        self.assign_values: dict[int, cst.BaseExpression] = {}
        self.call_sites: dict[int, list[cst.Call]] = {}
        self._instantiations: set[int] = set()  # ids of the calls of call_sites that instantiate a class (Job(t_env))
        # (attribute name -> [(the Attribute target, the value)]) of ``x.attr = value`` anywhere: what
        # ``self.attr`` in a class's methods holds is the values its methods assign it
        self._attribute_assigns: dict[str, list[tuple[cst.Attribute, cst.BaseExpression]]] = {}
        self._parents: dict[int, cst.CSTNode] = {}  # id(node) -> its parent, for nodes of the module
        self._order: dict[int, int] = {}  # id(node) -> its place in the walk: the order of the text
        # an index of the module, from the same walk: rules look calls and classes up here
        # instead of walking the module for them
        self._method_calls: dict[str, list[cst.Call]] = {}  # x.method(...) by method name, in the module's order
        self.class_defs: list[cst.ClassDef] = []  # every class, nested ones too, in the module's order
        # ids of the expressions (and their parts) in which the converter has nothing to do: no
        # attribute, parameter, def or class, and no name an import binds (``_LIVE``)
        self.inert: set[int] = set()
        self._flink_classes: dict[int, bool] = {}  # id(ClassDef) -> whether it uses Flink (plain_object)
        self._qualified: dict[int, frozenset[str]] = {}  # id(node) -> qualified_names(node)
        self.memo: dict[str, dict] = {}  # what a rule keeps for the module, by the rule's own key
        self.program = None  # the generation's program model of the module's streams (rules/pyflink/_streams.py)
        self.tables = None  # the Table API part's program model (rules/table/_program.py)
        self._prepare()

    # -- pre-pass -------------------------------------------------------------------------
    def _prepare(self) -> None:
        """One walk of the module (the fields that can hold nodes, as ``visitors.walk`` goes:
        no whitespace, comments or punctuation) for the parent and text order of every node,
        the index of calls and classes, assigned values, call sites of the module's defs and
        the expressions the converter need not enter (``inert``)."""
        parents, order, inert = self._parents, self._order, self.inert
        imported = _imported_names(self.module)  # None: a star import, any name may be imported
        todo: list[tuple[cst.CSTNode, Optional[cst.CSTNode], bool]] = [(self.module, None, False)]
        frames: list[list] = []  # [node, whether something below it is not inert] of the nodes being walked
        while todo:
            node, parent, leaving = todo.pop()
            kind = type(node)
            if leaving:
                _, live = frames.pop()
                if live or kind in _LIVE or (kind is cst.Name and (imported is None or node.value in imported)):  # type: ignore[attr-defined]
                    if frames:
                        frames[-1][1] = True
                elif not isinstance(node, _BLOCKS):
                    inert.add(id(node))
                continue
            order[id(node)] = len(order)
            if parent is not None:
                parents[id(node)] = parent
            if kind is cst.Call:
                self._index_call(node)  # type: ignore[arg-type]
            elif kind is cst.Assign:
                for t in node.targets:  # type: ignore[attr-defined]
                    if isinstance(t.target, cst.Name):
                        self.assign_values[id(t.target)] = node.value  # type: ignore[attr-defined]
                    elif isinstance(t.target, cst.Attribute):
                        self._attribute_assigns.setdefault(t.target.attr.value, []).append((t.target, node.value))  # type: ignore[attr-defined]
            elif kind is cst.AnnAssign:
                if isinstance(node.target, cst.Name) and node.value is not None:  # type: ignore[attr-defined]
                    self.assign_values[id(node.target)] = node.value  # type: ignore[attr-defined]
                elif isinstance(node.target, cst.Attribute):  # type: ignore[attr-defined]
                    self._attribute_assigns.setdefault(node.target.attr.value, []).append((node.target, node.value))  # type: ignore[attr-defined]
            elif kind is cst.ClassDef:
                self.class_defs.append(node)  # type: ignore[arg-type]
            elif kind is cst.ImportFrom:
                if isinstance(node.names, cst.ImportStar) and node.module is not None:  # type: ignore[attr-defined]
                    name = dotted(node.module)  # type: ignore[attr-defined]
                    if name and (name + ".").startswith(self.prefixes):
                        self.star_modules.append(name)
            frames.append([node, False])
            todo.append((node, parent, True))
            below = children(node, node_fields(node))
            todo.extend((child, node, False) for child in reversed(below))

    def _index_call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute):
            self._method_calls.setdefault(node.func.attr.value, []).append(node)
        if isinstance(node.func, cst.Name):
            for a in self.referents(node.func):
                if isinstance(a.node, cst.FunctionDef):
                    self.call_sites.setdefault(id(a.node), []).append(node)
                elif isinstance(a.node, cst.ClassDef):  # Job(t_env): a call of its __init__, self not passed
                    init = _init_of(a.node)
                    if init is not None:
                        self.call_sites.setdefault(id(init), []).append(node)
                        self._instantiations.add(id(node))

    def calls_of(self, *methods: str) -> list[cst.Call]:
        """The module's calls ``x.<method>(...)`` of these methods (every method call without
        any), by method, each in the module's order."""
        if not methods:
            methods = tuple(self._method_calls)
        return [call for method in methods for call in self._method_calls.get(method, ())]

    # -- names ----------------------------------------------------------------------------
    def qualified_name_set(self, node: cst.CSTNode) -> set[QualifiedName]:
        """libcst's qualified names of ``node`` (what ``QualifiedNameProvider`` gives), asked of
        its scope for this node only. KeyError for a node that has no scope (not in the module,
        an attribute's name...)."""
        return self.scopes.scope_of[id(node)].qualified_names(node)

    def referents(self, name: cst.Name) -> list[Binding]:
        """The bindings (not builtins) that the read ``name`` may read, in the module's order;
        [] for a name that is no read (a target, an attribute's name, ``a`` of a read of
        ``a.b`` that ``import a.b`` binds)."""
        access = self.scopes.access_of.get(id(name))
        if access is None:
            return []
        return [r for r in access.referents if not r.builtin]

    def scope_bindings(self, name: cst.Name) -> Optional[list]:
        """The bindings of ``name``'s identifier in the scope where ``name`` stands (its own
        assignments, not an enclosing scope's; a ``global x`` function's ``x = ...`` is the
        module's), each with ``node`` (the binding node) and ``references`` (the accesses
        reading it, each with ``node``); None for a node that has no scope (not in the module)."""
        scope = self.scopes.scope_of.get(id(name))
        return list(scope.assignments.get(name.value, ())) if scope is not None else None

    def scoped(self, node: cst.CSTNode) -> bool:
        """Whether names can be looked up at ``node`` (``visible_bindings``): it is a node of the
        module that libcst's scope analysis visits (not an attribute's name, an import's
        dotted name, a keyword of a call...)."""
        return id(node) in self.scopes.scope_of

    def visible_bindings(self, name: str, site: cst.CSTNode) -> Optional[set]:
        """Every binding of ``name`` that a read at ``site`` may see (builtins included: see
        ``is_builtin``), whatever the order of the statements; None for a node with no scope."""
        scope = self.scopes.scope_of.get(id(site))
        return set(scope[name]) if scope is not None else None

    @staticmethod
    def is_builtin(binding: Binding) -> bool:
        """Whether a binding of ``visible_bindings`` is a Python builtin (len, str...)."""
        return binding.builtin

    def parent(self, node: cst.CSTNode) -> Optional[cst.CSTNode]:
        return self._parents.get(id(node))

    def qualified_names(self, node: cst.CSTNode) -> frozenset[str]:
        """The qualified names of a Name/Attribute of the module (as libcst gives them, plus a
        name a star import of the model's may bring), kept once asked."""
        key = id(node)
        found = self._qualified.get(key)
        if found is None:
            found = self._qualified[key] = frozenset(self._qualified_names(node))
        return found

    def _qualified_names(self, node: cst.CSTNode) -> set[str]:
        try:
            names = {q.name for q in self.qualified_name_set(node)}
        except KeyError:
            names = set()
        if self.star_modules:
            base = node
            while isinstance(base, cst.Attribute):
                base = base.value
            if isinstance(base, cst.Name) and not self.referents(base):
                full = dotted(node)
                for mod in self.star_modules:
                    if base.value in self.model.EXPORTS.get(mod, ()):
                        names.add(f"{mod}.{full}")
        return names

    def qualified_name(self, node: cst.CSTNode) -> Optional[str]:
        """The Flink qualified name of a Name/Attribute, if it refers to a Flink module's name."""
        for q in self.qualified_names(node):
            if q.startswith(self.prefixes):
                return q
        return None

    def single_value(self, name: cst.Name) -> Optional[cst.BaseExpression]:
        """The value assigned to ``name`` when it has exactly one simple binding."""
        refs = self.referents(name)
        if len(refs) != 1:
            return None
        return self.assign_values.get(id(refs[0].node))

    def value_at(self, name: cst.Name) -> Optional[cst.BaseExpression]:
        """What ``name`` holds at this use: the value of its only binding, or of the assignment
        that reaches the use (``ds = ds.map(...)``; see ``reaching_value``). The walks that
        follow a stream back to its source follow names with this, and only this."""
        return self.single_value(name) or self.reaching_value(name)

    def sources_of(self, name: cst.Name) -> list[cst.BaseExpression]:
        """What a stream name stands for here: the value it holds (``value_at``), or, for a
        helper's parameter, what each call of the helper passes for it. The walks of a stream
        fact (bounded, timestamped...) follow names with this: a fact that holds for one of
        them holds for the name (when they disagree, ``mixed_types`` leaves a TODO at the use)."""
        value = self.value_at(name)
        return [value] if value is not None else self.arguments_of(name)

    def reaching_value(self, name: cst.Name) -> Optional[cst.BaseExpression]:
        """The value of a variable assigned several times (``ds = ds.map(...)``) at a use after
        the textually last of its assignments, when that one is a plain assignment in a block
        enclosing the use: every path to the use then passes it last. None otherwise."""
        refs = self.referents(name)
        if len(refs) < 2 or not self.reassigned:
            return None
        # the walk visits nodes in the order of the text: of two nodes neither of which holds the
        # other, the one visited first starts first
        order = self._order
        if id(name) not in order:
            return None
        last = max(refs, key=lambda r: order[id(r.node)])
        if order[id(last.node)] >= order[id(name)] or id(last.node) not in self.assign_values:
            return None
        statement = self.parent(self.parent(last.node))  # Name -> AssignTarget -> Assign
        block = self.parent(self.parent(statement))  # Assign -> SimpleStatementLine -> block
        node = self.parent(name)
        while node is not None and node is not block:
            node = self.parent(node)
        return self.assign_values[id(last.node)] if node is block else None

    def local_def(self, expr: cst.BaseExpression) -> Optional[Union[cst.FunctionDef, cst.ClassDef]]:
        """The module-level def/class a Name refers to (single binding)."""
        if not isinstance(expr, cst.Name):
            return None
        refs = self.referents(expr)
        if len(refs) == 1 and isinstance(refs[0].node, (cst.FunctionDef, cst.ClassDef)):
            return refs[0].node
        return None

    # -- types ----------------------------------------------------------------------------
    def type_of(self, expr: cst.BaseExpression) -> Optional[str]:
        t = self._type(expr)
        return None if t is _RECURSION else t  # type: ignore[return-value]

    def _type(self, expr: cst.BaseExpression):
        key = id(expr)
        if key in self._types:
            return self._types[key]
        if key in self._in_progress:
            return _RECURSION
        self._in_progress.add(key)
        try:
            t = self._compute(expr)
        finally:
            self._in_progress.discard(key)
        if t is not _RECURSION:
            self._types[key] = t
        return t

    def _compute(self, expr: cst.BaseExpression):
        if isinstance(expr, cst.Call):
            func = expr.func
            if isinstance(func, cst.Attribute):
                recv = self._type(func.value)
                if recv is _RECURSION:
                    return _RECURSION
                if recv is not None:
                    known, ret = self.model.method_return(recv, func.attr.value)
                    refine = self.model.call_return  # a model's return type that depends on the arguments
                    if known and refine is not None:
                        ret = refine(recv, func.attr.value, expr, ret)
                    return ret if known else None
            q = self.qualified_name(func)
            if q in self.model.ENTRY_POINTS:
                return self.model.ENTRY_POINTS[q]
            method = isinstance(func, cst.Attribute)  # self.levels(): a method of the module's class
            target = self.method_of(func) if method else self.local_def(func)  # type: ignore[arg-type]
            if isinstance(target, cst.FunctionDef):
                says, typ = self.annotation_type(target.returns)  # def transform(t: Table) -> Table
                if not says:
                    typ = self._join(self._type(r) for r in returns_of(target))
                return typ if not method or typ is _RECURSION or typ in self.model.ANNOTATION_CLASSES else None
            return None
        if isinstance(expr, cst.Attribute):  # self.t_env: followed for the types annotations convert (the Table API's)
            values = self.attribute_values(expr)
            t = self._join(self._type(v) if v is not None else None for v in values) if values else None
            return t if t is _RECURSION or t in self.model.ANNOTATION_CLASSES else None
        if isinstance(expr, cst.Name):
            value = self.reaching_value(expr)
            if value is not None:  # ds = ds.key_by(...).window(...): the value assigned last
                return self._type(value)
            results = []
            for ref in self.referents(expr):
                node = ref.node
                if id(node) in self.assign_values:
                    results.append(self._type(self.assign_values[id(node)]))
                elif isinstance(node, cst.Param):
                    results.append(self._param_type(node))
                else:
                    results.append(None)
            if not results:
                return None
            return self._join(results)
        return None

    def param_arguments(self, param: cst.Param) -> Optional[list[Optional[cst.BaseExpression]]]:
        """What the module's calls of ``param``'s function pass for it (None for a call that
        passes nothing recognisable); None when ``param`` is not a plain parameter of a def."""
        func = self.parent(self.parent(param)) if self.parent(param) else None
        if not isinstance(func, cst.FunctionDef):
            return None
        params = list(func.params.params)
        if param not in params:
            return None
        index = params.index(param)
        found: list[Optional[cst.BaseExpression]] = []
        # self.write(t) / job.write(t): a method's calls pass its second parameter first, as Job(t_env) __init__'s
        methods = [c for c in self._method_calls.get(func.name.value, ()) if self.method_of(c.func) is func]  # type: ignore[arg-type]
        for call in [*self.call_sites.get(id(func), []), *methods]:
            arg = None
            shift = 1 if id(call) in self._instantiations or isinstance(call.func, cst.Attribute) else 0
            for i, a in enumerate(call.args):
                if a.star:
                    arg = None
                    break
                if a.keyword is not None:
                    if a.keyword.value == param.name.value:
                        arg = a.value
                elif i + shift == index:
                    arg = a.value
            found.append(arg)
        return found

    def self_class(self, name: cst.Name) -> Optional[cst.ClassDef]:
        """The class whose instance ``name`` is, when it reads the first parameter of a method
        (``self``) of a class (not a staticmethod nor a classmethod)."""
        refs = self.referents(name)
        if len(refs) != 1 or not isinstance(refs[0].node, cst.Param):
            return None
        param = refs[0].node
        func = self.parent(self.parent(param)) if self.parent(param) else None
        if not isinstance(func, cst.FunctionDef) or not func.params.params or func.params.params[0] is not param:
            return None
        if any(dotted(d.decorator) in ("staticmethod", "classmethod") for d in func.decorators):
            return None
        block = self.parent(func)
        owner = self.parent(block) if block is not None else None
        return owner if isinstance(owner, cst.ClassDef) else None

    def instance_class(self, expr: cst.BaseExpression) -> Optional[cst.ClassDef]:
        """The class of this module whose instance ``expr`` is: ``self`` in its methods, or a name
        holding ``Job(...)``."""
        if not isinstance(expr, cst.Name):
            return None
        cls = self.self_class(expr)
        if cls is not None:
            return cls
        value = self.value_at(expr)
        target = self.local_def(value.func) if isinstance(value, cst.Call) else None
        return target if isinstance(target, cst.ClassDef) else None

    def method_of(self, func: cst.Attribute) -> Optional[cst.FunctionDef]:
        """The def of ``self.method`` (``job.method``) in the class of this module the receiver is
        an instance of (None when its body defines no such method, or defines it twice)."""
        cls = self.instance_class(func.value)
        if cls is None or not isinstance(cls.body, cst.IndentedBlock):
            return None
        found = [s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == func.attr.value]
        return found[0] if len(found) == 1 else None

    def attribute_values(self, expr: cst.Attribute) -> list[Optional[cst.BaseExpression]]:
        """What ``self.attr`` may hold in a method of a class: the values the methods of that class
        assign to ``self.attr`` (None for an annotation without a value); [] when ``expr`` is not
        such an attribute, or something outside the class's methods assigns ``attr`` to one of its
        instances (``job.t_env = ...``: not followed) or no method assigns it."""
        cls = self.instance_class(expr.value)
        if cls is None:
            return []
        found: list[Optional[cst.BaseExpression]] = []
        for target, value in self._attribute_assigns.get(expr.attr.value, ()):
            owner = self.self_class(target.value) if isinstance(target.value, cst.Name) else None
            if owner is cls:
                found.append(value)
            elif owner is None:
                return []  # assigned from outside its methods (or through another name): not followed
        return found

    def arguments_of(self, name: cst.Name) -> list[cst.BaseExpression]:
        """What the module's calls pass for the parameter ``name`` is bound to (only to it); []
        when that is not so or a call passes nothing recognisable for it."""
        refs = self.referents(name)
        if len(refs) != 1 or not isinstance(refs[0].node, cst.Param):
            return []
        args = self.param_arguments(refs[0].node) or []
        return [] if any(a is None for a in args) else args  # type: ignore[return-value]

    def plain_object(self, expr: cst.BaseExpression, depth: int = 0) -> bool:
        """Whether ``expr`` is made by a class of this module that has nothing of Flink: an
        instance (``Table()``, a name holding one) or what its methods give
        (``Table().key_by(len)``), where neither that class nor a class of the module it names
        touches Flink. Such an object's ``map``/``key_by``/``print`` are the user's own."""
        if depth > 50:
            return False
        if isinstance(expr, cst.Name):
            value = self.value_at(expr)
            return value is not None and self.plain_object(value, depth + 1)
        if isinstance(expr, cst.Attribute):
            return self.plain_object(expr.value, depth + 1)
        if not isinstance(expr, cst.Call):
            return False
        if isinstance(expr.func, cst.Attribute):  # a method of a plain object
            return self.plain_object(expr.func.value, depth + 1)
        target = self.local_def(expr.func)
        return isinstance(target, cst.ClassDef) and not self._mentions_flink(target)

    def _mentions_flink(self, node: cst.CSTNode) -> bool:
        """Whether a name inside ``node`` (a class, its bases too) resolves to Flink's API or
        holds a Flink object (``env``), or names a class of this module that does."""
        key = id(node)
        if key not in self._flink_classes:
            self._flink_classes[key] = True  # while it is being decided (recursive classes): assume it does
            found = False
            for name in nodes(node, cst.Name):
                if any(q.startswith(self.prefixes) for q in self.qualified_names(name)) or self.type_of(name) is not None:
                    found = True
                    break
                target = self.local_def(name)
                if isinstance(target, cst.ClassDef) and target is not node and self._mentions_flink(target):
                    found = True
                    break
            self._flink_classes[key] = found
        return self._flink_classes[key]

    def mixed_types(self, expr: cst.BaseExpression) -> list[str]:
        """The kinds of stream a name is bound to when they disagree and no one conversion
        fits them all; [] otherwise. Kinds are API types with no common type (a helper called
        with a keyed stream and with a plain one) and, for a helper's parameter, the model's
        ``stream_kind`` of what each call passes (an unbounded stream and a bounded one)."""
        if isinstance(expr, cst.Attribute):  # self.t_env: what the class's methods assign it
            values = self.attribute_values(expr)
            found = {self.type_of(v) if v is not None else None for v in values}
            if self.type_of(expr) is None and len(found) > 1 and found & set(self.model.ANNOTATION_CLASSES):
                return sorted(t or _OTHER for t in found)
            return []
        if not isinstance(expr, cst.Name):
            return []
        kind = self.model.stream_kind
        types: set[str] = set()  # the API types of what the name is bound to
        kinds: dict[str, str] = {}  # for a parameter's arguments: their kind -> kind and type
        for ref in self.referents(expr):
            node = ref.node
            if id(node) in self.assign_values:
                types.add(self.type_of(self.assign_values[id(node)]) or "")
            elif isinstance(node, cst.Param):
                if self.annotation_type(node.annotation)[0]:
                    continue  # its annotation says what it is
                args = self.param_arguments(node) or ()
                typed = [self.type_of(arg) if arg is not None else None for arg in args]
                if None in typed and any(t in self.model.ANNOTATION_CLASSES for t in typed):
                    # a helper called with a table environment (or a Table) and with something else
                    return sorted({t or _OTHER for t in typed})
                for arg, t in zip(args, typed):
                    types.add(t or "")
                    if t and kind is not None:
                        prefix = kind(self, arg)
                        kinds[prefix] = f"{prefix}{t}"
        types.discard("")
        if self.type_of(expr) is None and len(types) > 1:
            return sorted(types)
        return sorted(kinds.values()) if len(kinds) > 1 else []

    def annotation_type(self, annotation: Optional[cst.Annotation]) -> tuple[bool, Optional[str]]:
        """(whether the annotation says what the value is, the model's type it says): a Flink
        class of the model's ``ANNOTATION_TYPES`` gives its type; another class (``str``, a class
        of the program's own or of a library) says the value is no Flink object: (True, None);
        no annotation, ``Any``/``object``, another Flink class, a subscript or a string: (False, None)."""
        node = annotation.annotation if annotation is not None else None
        if not isinstance(node, (cst.Name, cst.Attribute)):
            return False, None
        names = self.qualified_names(node)
        for q in names:
            if q in self.model.ANNOTATION_TYPES:
                return True, self.model.ANNOTATION_TYPES[q]
        if not names or any(q.startswith(self.prefixes) or q in ("typing.Any", "object", "builtins.object") for q in names):
            return False, None
        return True, None

    def _param_type(self, param: cst.Param):
        says, typ = self.annotation_type(param.annotation)
        if says:
            return typ
        args = self.param_arguments(param)
        if not args:
            return None
        return self._join(self._type(arg) if arg is not None else None for arg in args)

    def _join(self, types: Iterable[object]):
        known = [t for t in types if t is not _RECURSION]
        if not known:
            return _RECURSION
        if any(t is None for t in known):
            return None
        distinct = set(known)
        if len(distinct) == 1:
            return distinct.pop()
        if distinct & self.model.OWN_FORM:
            return None  # e.g. a helper called with a keyed stream and with a plain one
        # several types with a common supertype (e.g. two kinds of DataSet): that supertype
        chains = [list(self.model.supertypes(t)) for t in distinct]  # type: ignore[arg-type]
        for candidate in chains[0]:
            if all(candidate in c for c in chains[1:]):
                return candidate
        return None


def _init_of(cls: cst.ClassDef) -> Optional[cst.FunctionDef]:
    """The ``__init__`` a class's body defines (the last, if several)."""
    found = None
    if isinstance(cls.body, cst.IndentedBlock):
        for stmt in cls.body.body:
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value == "__init__":
                found = stmt
    return found


def returns_of(func: cst.FunctionDef) -> list[cst.BaseExpression]:
    """The values the ``return`` statements of ``func`` give (not those of nested defs)."""
    found: list[cst.BaseExpression] = []

    class V(Visitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is func

        def visit_Lambda(self, node: cst.Lambda) -> bool:
            return False

        def visit_ClassDef(self, node: cst.ClassDef) -> bool:
            return False

        def visit_Return(self, node: cst.Return) -> None:
            if node.value is not None:
                found.append(node.value)

    func.visit(V())
    return found
