"""Exceptions raised by sbekit."""

from __future__ import annotations

from typing import NamedTuple, Optional, Sequence, Tuple


class SbekitError(Exception):
    """Base class of every error sbekit raises about its input."""


class Diagnostic(NamedTuple):
    """One finding of the schema compiler: where, which rule, and what."""

    severity: str
    """``"error"`` or ``"warning"``."""
    rule: str
    """The rule's kebab-case name, e.g. ``field-offset``."""
    message: str
    """What is wrong."""
    file: Optional[str]
    """The schema file (or the name given to ``Schema.from_xml``)."""
    line: Optional[int]
    """1-based line."""
    column: Optional[int]
    """1-based column."""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}: " if self.file else ""
        return f"{where}{self.severity}[{self.rule}]: {self.message}"


class SchemaError(SbekitError, ValueError):
    """A schema is not valid (or not readable).

    ``file``, ``line``, ``column`` and ``rule`` locate the first error; ``diagnostics`` lists
    every error and warning the compiler reported, as :class:`Diagnostic` tuples.
    """

    def __init__(self, message: str, diagnostics: Sequence[Tuple] = ()) -> None:
        super().__init__(message)
        self.diagnostics = [Diagnostic(*d) for d in diagnostics]
        first = next((d for d in self.diagnostics if d.severity == "error"), None)
        self.file: Optional[str] = first.file if first else None
        self.line: Optional[int] = first.line if first else None
        self.column: Optional[int] = first.column if first else None
        self.rule: Optional[str] = first.rule if first else None


class DecodeError(SbekitError, ValueError):
    """Bytes that are not a valid message (or stream of messages) of the schema.

    ``offset`` is the byte offset of the element that failed, counted from the start of the
    buffer or stream given; ``path`` names the element (``Car.fuelFigures[2].usageDescription``;
    empty for the message header or a frame); ``index`` is the message's index in a stream
    (``None`` for a single ``decode``).
    """

    def __init__(
        self,
        message: str,
        offset: Optional[int] = None,
        path: str = "",
        index: Optional[int] = None,
    ) -> None:
        super().__init__(message)
        self.offset = offset
        self.path = path
        self.index = index


class EncodeError(SbekitError, ValueError):
    """A value that cannot be encoded; ``path`` names it (``Car.fuelFigures[2].speed``)."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.path = path
