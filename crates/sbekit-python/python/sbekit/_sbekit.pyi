"""Type stubs for the native module ``sbekit._sbekit`` (re-exported by ``sbekit``)."""

import os
from typing import Any, Dict, List, Literal, Optional, Tuple, Union

_Buffer = Union[bytes, bytearray, memoryview]
_Path = Union[str, "os.PathLike[str]"]
_Framing = Literal["sbe", "u16le", "u32le", "sofh"]

__version__: str

class ArrowTable:
    """Arrow record batches with one schema; implements ``__arrow_c_stream__`` and
    ``__arrow_c_schema__`` and can be read any number of times."""

    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object: ...
    def __arrow_c_schema__(self) -> object: ...
    def __len__(self) -> int: ...
    @property
    def num_rows(self) -> int: ...
    @property
    def num_columns(self) -> int: ...
    @property
    def column_names(self) -> List[str]: ...

class Field:
    """One field of a message or group, as the schema describes it."""

    name: str
    id: int
    type_name: str
    kind: Literal["primitive", "enum", "set", "composite"]
    offset: int
    size: int
    presence: Literal["required", "optional", "constant"]
    since_version: int
    members: List["Field"]

class Message:
    """A message (or a repeating group inside one)."""

    kind: Literal["message", "group"]
    name: str
    id: int
    since_version: int
    description: Optional[str]
    block_length: int
    fields: List[Field]
    groups: List["Message"]
    var_data: List[str]
    def names(self) -> List[str]: ...

class Schema:
    """A compiled SBE schema (XML or ``.sbeir``)."""

    def __init__(self, path: _Path) -> None: ...
    @staticmethod
    def from_xml(text: str, name: str = "<string>") -> "Schema": ...
    @property
    def package(self) -> str: ...
    @property
    def id(self) -> int: ...
    @property
    def version(self) -> int: ...
    @property
    def byte_order(self) -> Literal["little", "big"]: ...
    @property
    def messages(self) -> List[Message]: ...
    def decode(self, buf: _Buffer, offset: int = 0) -> Dict[str, Any]: ...
    def decode_all(
        self, buf: _Buffer, framing: _Framing = "sbe", template: Union[str, int, None] = None
    ) -> List[Dict[str, Any]]: ...
    def encode(
        self,
        name: Union[str, int, None],
        value: Dict[str, Any],
        version: Optional[int] = None,
        *,
        validate: bool = False,
    ) -> bytes: ...
    def header(self, buf: _Buffer, offset: int = 0) -> Dict[str, Any]: ...
    def read(
        self,
        source: Union[_Path, _Buffer],
        framing: _Framing = "sbe",
        template: Union[str, int, None] = None,
    ) -> ArrowTable: ...
    def read_all(
        self, source: Union[_Path, _Buffer], framing: _Framing = "sbe"
    ) -> Dict[str, ArrowTable]: ...

class TradeFile:
    """A trade file (``sbekit trades convert``), memory-mapped."""

    def __init__(self, path: _Path) -> None: ...
    def __len__(self) -> int: ...
    def table(self) -> ArrowTable: ...
    def easy(self, threads: int = 0) -> ArrowTable: ...
    def hard(self, threads: int = 0) -> ArrowTable: ...

def iex_stats(path: str, keep_going: bool = False) -> Dict[str, Any]: ...
def iex_read(path: str, keep_going: bool = False) -> Dict[str, ArrowTable]: ...
def iex_schemas() -> Dict[str, ArrowTable]: ...
def capture_schemas(schema: Schema, profile: str) -> Dict[str, ArrowTable]: ...
def capture_read_checked(
    paths: List[str], schema: Schema, profile: str
) -> Tuple[Dict[str, ArrowTable], int, Optional[Tuple[int, str]]]: ...
def capture_read(
    paths: List[str], schema: Schema, profile: str, arbitrate: bool = False
) -> Dict[str, ArrowTable]: ...
def capture_stats(
    paths: List[str], schema: Schema, profile: str, arbitrate: bool = False, validate: bool = False
) -> Dict[str, Any]: ...
