"""Entry points of the engine: convert or check one file's source."""

from __future__ import annotations

from flink2spark.transpiler import source as S
from flink2spark.transpiler.result import ConversionResult


def convert_bytes(data: bytes, path: str = "<string>") -> ConversionResult:
    """Convert a file's raw bytes; bad input gives status "error" and no output."""
    try:
        text = S.decode(data)
    except S.BadInput as bad:
        return ConversionResult(path, "", None, status="error", markers=[bad.marker])
    return convert_source(text, path)


def convert_source(source: str, path: str = "<string>") -> ConversionResult:
    """Convert one file's source text. Never raises for bad input: see ``ConversionResult``."""
    try:
        module = S.parse(source)
    except S.BadInput as bad:
        return ConversionResult(path, source, None, status="error", markers=[bad.marker])
    generation = S.detect_generation(module)
    if generation is None:
        return ConversionResult(path, source, source, generation=None, status="unchanged")
    # Placeholder until the rule engine lands: leave the file as is.
    return ConversionResult(path, source, source, generation=generation, status="partial")
