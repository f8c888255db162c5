"""Records read from files, declared once as frozen dataclasses: what a file's key must be
is written beside its field as ``Annotated`` metadata (``Between``, ``Entries``, ``OneOf``,
``Named``, ``Text``, ``Check``), and pydantic turns a record into a validator and a writer only when
a file is read (``cdsim.schema.validate``, ``cdsim.schema.dump``). Nothing here imports
pydantic: the records are the values the rules play with, and pydantic costs the command
line's start.

A record's fields are its file's keys, in its file's order; what the rules derive from
them (a tile's orientations, a board's spade) is a field with ``init=False`` set in
``__post_init__``, which also holds the record's own rules and so checks a record made
in code as it checks one read from a file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from pydantic import ConfigDict, GetCoreSchemaHandler
    from pydantic_core import CoreSchema


class FileRecord:
    """A table of a file: strict (a TOML string is not a number, nor a bool an integer),
    only its declared keys (an unknown key is named with the closest known one)."""

    __slots__ = ()
    # pydantic's ConfigDict is a TypedDict: a plain dict, read when a file is checked
    __pydantic_config__: ClassVar[ConfigDict] = {"strict": True, "extra": "forbid"}

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler
                                     ) -> CoreSchema:
        from cdsim.schema import record_schema

        return record_schema(cls, handler(source))

    def written(self, tables: dict[str, object]) -> dict[str, object]:
        """The record as its file writes it, from ``tables`` (each field as its own writer
        writes it): a record with a key written from another (a card's requires, by its
        type) sets it here."""
        return tables


@dataclass(frozen=True, slots=True)
class Between:
    """An integer from ``low`` to ``high``, both included."""

    low: int
    high: int

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler
                                     ) -> CoreSchema:
        schema: Any = handler(source)  # an int schema
        return {**schema, "ge": self.low, "le": self.high}


@dataclass(frozen=True, slots=True)
class Entries:
    """A list (held as a tuple) or a table with from ``least`` to ``most`` entries."""

    least: int | None = None
    most: int | None = None

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler
                                     ) -> CoreSchema:
        from pydantic_core import core_schema as cs

        schema: Any = handler(source)
        if schema["type"] != "tuple":
            bounds = {"min_length": self.least, "max_length": self.most}
            return {**schema, **{k: v for k, v in bounds.items() if v is not None}}
        # a TOML list, its length checked before its items, held as the record's tuple
        listed = cs.list_schema(schema["items_schema"][0], min_length=self.least,
                                max_length=self.most)
        return cs.no_info_after_validator_function(
            tuple, listed, serialization=cs.wrap_serializer_function_ser_schema(
                lambda value, write: write(value), schema=schema))


@dataclass(frozen=True, slots=True)
class OneOf:
    """A string among ``names`` (a Literal, for names held in a table)."""

    names: Iterable[str]

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler
                                     ) -> CoreSchema:
        from pydantic_core import core_schema as cs

        return cs.literal_schema(list(self.names))


@dataclass(frozen=True, slots=True)
class Named:
    """A name among ``codes`` in the file, held as its code (``"pond"`` -> 2); a field left
    at its default (a code no name has) is written as none."""

    codes: Mapping[str, int]

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler
                                     ) -> CoreSchema:
        from pydantic_core import core_schema as cs

        names = {code: name for name, code in self.codes.items()}
        return cs.no_info_after_validator_function(
            self.codes.__getitem__, cs.literal_schema(list(self.codes)),
            serialization=cs.plain_serializer_function_ser_schema(names.get))


@dataclass(frozen=True, slots=True)
class Text:
    """A string in the file, held as ``read(text)`` (which raises ValueError with its
    problem in words) and written back as ``write(value)``."""

    read: Callable[[str], Any]
    write: Callable[[Any], str]

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler
                                     ) -> CoreSchema:
        from pydantic_core import core_schema as cs

        return cs.no_info_after_validator_function(
            self.read, cs.str_schema(),
            serialization=cs.plain_serializer_function_ser_schema(self.write))


@dataclass(frozen=True, slots=True)
class Check:
    """A rule of one key's value: ``rule(value)`` raises ValueError with its problem in
    words (named after the key), else returns the value."""

    rule: Callable[[Any], Any]

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler
                                     ) -> CoreSchema:
        from pydantic_core import core_schema as cs

        return cs.no_info_after_validator_function(self.rule, handler(source))
