"""Data returned by the engine: conversion results and markers."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Literal, Optional

Severity = Literal["note", "todo", "error"]
Status = Literal["converted", "partial", "unchanged", "error"]


@dataclass(frozen=True)
class Marker:
    """One finding: an approximate rewrite (note), a construct left as is (todo) or bad input (error).

    ``line``/``col`` are 1-based and refer to the *input* file.
    """

    line: int
    col: int
    code: str
    severity: Severity
    message: str

    def format(self, path: str) -> str:
        label = "error" if self.severity == "error" else self.code
        if self.severity == "error":
            return f"{path}:{self.line}:{self.col}: error: {self.code} {self.message}"
        return f"{path}:{self.line}:{self.col}: {label} {self.message}"

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class ConversionResult:
    path: str
    source: str
    output: Optional[str]  # None when the input could not be read or parsed
    generation: Optional[str] = None  # "dataset" | "jython" | "pyflink" | None
    status: Status = "unchanged"
    markers: list[Marker] = field(default_factory=list)
    rules_applied: list[str] = field(default_factory=list)
    _changed: Optional[bool] = field(default=None, init=False, repr=False, compare=False)  # set by drop_text

    @property
    def changed(self) -> bool:
        if self._changed is not None:
            return self._changed
        return self.output is not None and self.output != self.source

    def drop_text(self) -> "ConversionResult":
        """Forget the source and output texts once delivered, keeping what the report and the
        summary need: a run over many files then holds no file's text but the current one's."""
        self._changed = self.changed
        self.source = ""
        self.output = None if self.output is None else ""
        return self

    @property
    def errors(self) -> list[Marker]:
        return [m for m in self.markers if m.severity == "error"]

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "generation": self.generation,
            "status": self.status,
            "changed": self.changed,
            "rules_applied": sorted(set(self.rules_applied)),
            "markers": [m.to_json() for m in self.markers],
        }
