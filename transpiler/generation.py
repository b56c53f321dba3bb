"""What the engine knows of one API generation: a ``GenerationModel`` with named fields.

Each model module (``api_model`` for the DataSet API, ``pyflink_model`` for PyFlink's
DataStream API) keeps its tables as module constants, which its rules import (``P.KEYED``), and
builds one ``MODEL = GenerationModel(...)`` from them at its end; ``models.MODELS`` maps each
generation to it. The engine (convert, infer, functions, foreign, engine) reads only this
object: what a generation does not have is a field's default here, never an attribute the
engine has to probe for.

The fields keep the names of the module constants they hold (upper case for tables, lower
case for functions): ``GenerationModel.of(globals(), "HINTS", ...)`` takes the required ones
and the optional ones named from the module's constants of those names; a missing constant or
a name that is no field fails at import, so a misspelt name cannot leave a default in place.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Callable, Iterable, Mapping, Optional

SAME = "<same>"  # in a model's METHODS: the method returns its receiver


def type_functions(bases: Mapping[str, str], methods: Mapping[str, Mapping[str, Optional[str]]]):
    """(supertypes, method_return) of a model's tables: ``bases`` (type -> its base type, whose
    methods it inherits) and ``methods`` (type -> method -> return type, ``SAME``: the receiver's).
    The functions read the tables when called, so entries added later count."""

    def supertypes(t: str) -> Iterable[str]:
        """A type and its bases, nearest first."""
        while t is not None:
            yield t
            t = bases.get(t)

    def method_return(receiver: str, method: str) -> tuple[bool, Optional[str]]:
        """(known, return type) of ``receiver.method(...)``."""
        for t in supertypes(receiver):
            table = methods.get(t, {})
            if method in table:
                ret = table[method]
                return True, (receiver if ret == SAME else ret)
        return False, None

    return supertypes, method_return


@dataclass(frozen=True, eq=False)  # eq=False: hashed by identity (foreign's cache keys on it)
class GenerationModel:
    # -- naming -----------------------------------------------------------------------------
    API_NAME: str  # in messages: "Flink's {API_NAME} API"
    QUALIFIED_PREFIXES: tuple[str, ...]  # qualified names of the API start with one of these
    SHIM_NAME: str  # its runtime shim: flink2spark.runtime.<SHIM_NAME>, imported as f2s

    # -- types and calls -----------------------------------------------------------------------
    ENTRY_POINTS: Mapping[str, str]  # qualified name of a call -> the type it returns
    method_return: Callable[[str, str], tuple[bool, Optional[str]]]  # (receiver type, method) -> (known, return type)
    supertypes: Callable[[str], Iterable[str]]  # a type and its bases, nearest first
    CONTINUATIONS: Mapping[str, frozenset[str]]  # builder types -> methods that continue the chain
    MODIFIERS: frozenset[str]  # chain calls that modify the operator before them (name, set_parallelism...)
    DISTINCTIVE_METHODS: frozenset[str]  # methods only this API has: marked on receivers of unknown type
    EXPORTS: Mapping[str, tuple[str, ...]]  # module -> the names it exports
    NAME_MAP: Mapping[str, tuple[str, str]]  # qualified Flink name -> (shim module, shim name)

    # -- user functions --------------------------------------------------------------------------
    FUNCTION_CLASSES: Mapping[str, tuple[str, str]]  # qualified base class -> (kind, method)
    COLLECTOR_METHODS: Mapping[str, Mapping[str, tuple[int, bool]]]  # kind -> method -> (values, iterators)
    CONVENTIONS: Mapping[str, Any]  # operator -> functions.Convention (how it calls its function)
    ANY_CALLABLE: bool = False  # builtins and methods of plain classes pass as functions as they are
    check_class: Optional[Callable[[Any, Any], None]] = None  # the model's own conditions on a function class
    FLINK_ONLY_METHODS: Mapping[str, frozenset[str]] = field(default_factory=dict)  # kind -> methods only Flink calls (dropped with the base)
    # qualified classes (and their members) whose objects only Flink reads and whose making has no
    # effect: an assignment of one the converted program no longer reads goes (transpiler/unread.py)
    FLINK_VALUES: frozenset[str] = frozenset()

    # -- markers ---------------------------------------------------------------------------------
    CODES: Mapping[str, str] = field(default_factory=dict)  # role -> marker code, over convert.DEFAULT_CODES
    HINTS: Mapping[str, str] = field(default_factory=dict)  # "Type.method", type or method -> what to do instead
    UNCONVERTED_CALLS: Mapping[str, str] = field(default_factory=dict)  # qualified call -> its TODO message

    # -- what the model's types become -------------------------------------------------------------
    KEEP_NAMES: bool = True  # .name("x") of an operator becomes RDD.setName("x")
    OWN_FORM: frozenset[str] = frozenset()  # types converted to another form than their base type's
    CONVERTED_ATTRIBUTES: Mapping[str, frozenset[str]] = field(default_factory=dict)  # type -> attributes the conversion writes
    call_return: Optional[Callable[..., Optional[str]]] = None  # a return type that depends on the call's arguments
    stream_kind: Optional[Callable[[Any, Any], str]] = None  # what besides its type changes a stream's conversion

    # -- the Table API -----------------------------------------------------------------------------
    api_name_of: Optional[Callable[[Optional[str], Optional[str]], str]] = None  # (type, method) -> the API messages name, when not API_NAME
    RULE_SETS: tuple[str, ...] = ()  # packages of rules besides the generation's own (pyflink: "table")
    COLUMN_TYPES: frozenset[str] = frozenset()  # types whose attributes are their columns (a Table's t.a: the DataFrame's too)
    TABLE_BRIDGES: frozenset[str] = frozenset()  # methods making a stream of a Table (to_data_stream...)
    table_bridge: Optional[Callable[[Any, Any], Optional[Any]]] = None  # the Table API call a stream may come from (its program model)
    # (resolver, qualified Flink name) -> (Spark module, name) where the program's use of a NAME_MAP name is Spark's own
    spark_name: Optional[Callable[[Any, str], Optional[tuple[str, str]]]] = None
    NAME_VALUES: Mapping[str, str] = field(default_factory=dict)  # qualified Flink name -> the Python expression of its Spark value
    ANNOTATION_TYPES: Mapping[str, str] = field(default_factory=dict)  # qualified class of an annotation -> the type it says
    ANNOTATION_CLASSES: Mapping[str, str] = field(default_factory=dict)  # type -> the pyspark.sql class its annotations become

    @classmethod
    def of(cls, namespace: Mapping[str, Any], *optional: str) -> "GenerationModel":
        """The model of a model module: the required fields and the ``optional`` ones named,
        from the constants of those names in ``namespace`` (the module's ``globals()``); the
        other optional fields keep their defaults."""
        required = [f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING]
        return cls(**{name: namespace[name] for name in [*required, *optional]})
