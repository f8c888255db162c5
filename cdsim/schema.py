"""The input files' schemas are declared with pydantic (strict: a TOML string is not a
number, nor a bool an integer; a key that is not declared is refused): a ``Table`` model,
or a frozen dataclass record (``cdsim.file_records``) checked here by ``validate``
and written back by ``dump``. ``problem`` turns a validation error into one line naming
the entry, the key and what is allowed. A validator raises ValueError with its problem in
words, to follow the key's name and ':'.

Imported only where a file is checked: pydantic costs the command line's start.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Iterable
from typing import Any, ClassVar, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from cdsim.errors import user_text

# the validation context of a record read back from a manifest that dumped it
READ_BACK = {"read_back": True}


def reads_back(info: ValidationInfo) -> bool:
    """Whether a record is read back from its dump (``READ_BACK``), not from a file."""
    return bool(info.context and info.context.get("read_back"))


class Table(BaseModel):
    """A TOML table holding only its declared keys; an unknown key is named with the
    closest known one. Read back from its dump (``model_validate(..., context=READ_BACK)``)
    it takes its loaded and computed keys too (the computed ones are made again)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    gone: ClassVar[dict[str, str]] = {}  # keys that were once allowed: what to say instead
    # fields its loader sets (a resolved path, a digest), not keys of the file
    loaded: ClassVar[frozenset[str]] = frozenset()

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any, info: ValidationInfo) -> Any:
        if not reads_back(info):
            known_keys(tuple(k for k in cls.model_fields if k not in cls.loaded), data, cls.gone)
            return data
        computed = cls.model_computed_fields
        known_keys(tuple(f.alias or k for k, f in cls.model_fields.items()) + tuple(computed),
                   data)
        return ({k: v for k, v in data.items() if k not in computed} if isinstance(data, dict)
                else data)


def known_keys(known: tuple[str, ...], data: Any, gone: dict[str, str] | None = None) -> None:
    """Refuse a key of the table ``data`` not among ``known``, naming the closest known one
    (``gone``: keys once allowed, and what to say instead)."""
    if not isinstance(data, dict):
        return
    for key in data:
        if gone and key in gone:
            raise ValueError(f"{key} is {gone[key]}")
        if key not in known:
            close = difflib.get_close_matches(str(key), known, 1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise ValueError(f"unknown key {user_text(key, repr, 60)} ({hint}known: "
                             f"{', '.join(known)})")


Record = TypeVar("Record")


def record_schema(record: type[Any], schema: CoreSchema) -> CoreSchema:
    """A dataclass record's schema (``schema``, as pydantic makes it) read from a table:
    only its keys (as ``Table``), its fields strict, and written by its ``written``."""
    known = tuple(f.name for f in dataclasses.fields(record) if f.init)
    reads: Any = dict(schema)
    reads["strict"] = False  # a table is read into the record; its fields stay strict
    reads["serialization"] = core_schema.wrap_serializer_function_ser_schema(
        lambda value, write: value.written(write(value)))

    def read(data: Any) -> Any:
        known_keys(known, data)
        return data

    return core_schema.no_info_before_validator_function(read, reads)


_ADAPTERS: dict[type[Any], TypeAdapter[Any]] = {}


def _adapter(record: type[Any]) -> TypeAdapter[Any]:
    if record not in _ADAPTERS:
        _ADAPTERS[record] = TypeAdapter(record)
    return _ADAPTERS[record]


def validate(record: type[Record], data: Any) -> Record:
    """``data`` (a file's tables) read into ``record``, a dataclass of
    ``cdsim.file_records``; raises ValidationError (``problem`` words it)."""
    return _adapter(record).validate_python(data)  # type: ignore[no-any-return]


def dump(value: Any) -> dict[str, object]:
    """A record as its file writes it (``validate``'s inverse; defaults written out)."""
    return _adapter(type(value)).dump_python(value, mode="json")  # type: ignore[no-any-return]


def one_of(options: Iterable[str]) -> BeforeValidator:
    """A string among ``options`` (a Literal, for names held in a table): anything else,
    of any type, is refused naming them."""
    allowed = tuple(options)
    expected = " or ".join(filter(None, (", ".join(map(repr, allowed[:-1])), repr(allowed[-1]))))

    def check(value: Any) -> Any:
        if not isinstance(value, str) or value not in allowed:
            raise PydanticCustomError("literal_error", "Input should be {expected}",
                                      {"expected": expected})
        return value

    return BeforeValidator(check)


PLAIN = re.compile(r"[\w-]{1,60}\Z", re.ASCII)  # a key shown as it is; others as repr
KINDS = {"int_type": "an integer", "string_type": "a string", "bool_type": "true or false",
         "float_type": "a number", "list_type": "a list", "tuple_type": "a list",
         "dict_type": "a table", "model_type": "a table", "dataclass_type": "a table"}
RANGES = ("greater_than_equal", "less_than_equal", "greater_than", "less_than")


def problem(exc: ValidationError, model: type[Any], data: Any,
            entries: dict[str, str] | None = None, ident: str = "name") -> str:
    """The first problem of ``exc`` (``model`` validating ``data``) on one line: ``entry:
    key.sub must be ..., got ...``. An entry of an array of tables named in ``entries``
    (``{"tile": "tile"}``) is named by its ``ident`` key when it has one, else by its
    place (1, 2, ...). ``model``: a ``Table`` or a record ``validate`` reads."""
    err = exc.errors()[0]
    loc = list(err["loc"])
    where = ""
    if entries and len(loc) > 1 and loc[0] in entries and isinstance(loc[1], int):
        rows = data.get(loc[0]) if isinstance(data, dict) else None
        row = rows[loc[1]] if isinstance(rows, list) and loc[1] < len(rows) else None
        name = row.get(ident) if isinstance(row, dict) else None
        shown = (user_text(name, repr, 60) if isinstance(name, str | int)
                 and not isinstance(name, bool) else str(loc[1] + 1))
        where, loc = f"{entries[str(loc[0])]} {shown}", loc[2:]
    key = ".".join(x if PLAIN.match(x) else user_text(x, repr, 60) for x in map(str, loc))
    got = user_text(err.get("input"), repr, 60)
    kind = err["type"]
    if kind == "value_error":  # a validator's own words
        line = f"{key}: {err['ctx']['error']}"
    elif kind == "extra_forbidden":  # a schema that is not a Table
        line = f"{key} is not a known key"
    elif kind == "missing":
        line = f"{key} is required"
    elif kind in KINDS:
        line = f"{key} must be {KINDS[kind]}, got {got}"
    elif kind in RANGES:
        line = f"{key} must be {_allowed(model, err['loc'])}, got {got}"
    elif kind == "literal_error":
        line = f"{key} must be {err['ctx']['expected']}, got {got}"
    elif kind == "string_too_short":
        line = f"{key} must not be empty"
    elif kind in ("too_short", "too_long"):
        ctx = err["ctx"]
        most = ctx["min_length"] if kind == "too_short" else ctx["max_length"]
        line = (f"{key} must have {'at least' if kind == 'too_short' else 'at most'} {most} "
                f"{'entry' if most == 1 else 'entries'}, got {ctx['actual_length']}")
    else:  # not raised by cdsim's schemas; pydantic's own words
        line = f"{key}: {err['msg'][0].lower()}{err['msg'][1:]}, got {got}"
    line = line.lstrip(": ")
    return f"{where}: {line}" if where else line


def _allowed(model: type[Any], loc: tuple[int | str, ...]) -> str:
    """The range declared for the value at ``loc`` (Field(ge=..., le=...)), in words."""
    node = _field(_json_schema(model), loc)
    low, high = node.get("minimum"), node.get("maximum")
    if low is not None and high is not None:
        return f"between {low} and {high}"
    if low is not None or high is not None:
        return f">= {low}" if low is not None else f"<= {high}"
    low, high = node.get("exclusiveMinimum"), node.get("exclusiveMaximum")
    parts = ([f"above {low}"] if low is not None else []) + (
        [f"below {high}"] if high is not None else [])
    return " and ".join(parts) or "in range"


_JSON_SCHEMAS: dict[type[Any], JsonSchemaValue] = {}


def _json_schema(model: type[Any]) -> JsonSchemaValue:
    if model not in _JSON_SCHEMAS:
        _JSON_SCHEMAS[model] = (model.model_json_schema() if issubclass(model, BaseModel)
                                else _adapter(model).json_schema())
    return _JSON_SCHEMAS[model]


def _field(schema: JsonSchemaValue, loc: tuple[int | str, ...]) -> JsonSchemaValue:
    """The JSON-schema node of the value at ``loc``."""
    defs = schema.get("$defs", {})

    def plain(node: JsonSchemaValue) -> JsonSchemaValue:
        if "$ref" in node:
            return plain(defs[node["$ref"].rsplit("/", 1)[1]])
        for option in node.get("anyOf", ()):
            if option.get("type") != "null":
                return plain(option)
        return node

    node = plain(schema)
    for step in loc:
        if isinstance(step, int):
            node = plain(node.get("items", {}))
        else:
            node = plain(node.get("properties", {}).get(step) or
                         node.get("additionalProperties") or {})
    return node
