"""A stop signal that lands inside a library which wraps it (pydantic's serializer turns
the KeyboardInterrupt raised into a PydanticSerializationError) is still a stop: exit 130
and the resume line, not a traceback (tests/test_stops.py saw one under load)."""

from __future__ import annotations

import importlib

import pytest

# the module, not the Typer app that cdsim.cli hands out under the same name once loaded
app = importlib.import_module("cdsim.cli.app")


def test_a_wrapped_interrupt_is_a_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(app.SIGNALLED, "on", False)
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as inner:
            raise ValueError("Error calling function `_written`: KeyboardInterrupt") from inner
    except ValueError as wrapped:
        assert app._a_stop(wrapped)
    assert not app._a_stop(ValueError("a bug"))


def test_a_signal_noted_makes_any_error_after_it_a_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(app.SIGNALLED, "on", False)
    with pytest.raises(KeyboardInterrupt):
        app._stop_signal(15, None)
    assert app.SIGNALLED["on"] and app._a_stop(RuntimeError("no chain"))


def test_a_pydantic_serializer_interrupted_is_a_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real wrapping: a serializer interrupted by the stop handler."""
    from pydantic import BaseModel, model_serializer

    class Interrupted(BaseModel):
        @model_serializer(mode="wrap")
        def _written(self, handler: object) -> object:
            app._stop_signal(15, None)
            return None

    monkeypatch.setitem(app.SIGNALLED, "on", False)
    with pytest.raises(Exception) as caught:
        Interrupted().model_dump()
    monkeypatch.setitem(app.SIGNALLED, "on", False)  # the chain alone must tell
    assert app._a_stop(caught.value) or isinstance(caught.value, KeyboardInterrupt)
