"""Configurations as the package takes them: a hardware or workload document given as a path, a
YAML string or a dict, and ``set`` overrides given as a dict or as ``key.path=value`` strings,
turned into what ``ridgeline`` reads (files or their text, ``--set`` arguments)."""

from __future__ import annotations

import json
import numbers
import os
from typing import Any, Dict, Iterable, List, Mapping, NamedTuple, Optional, Union

import yaml

#: A hardware, workload or sweep document: a path to a YAML file, the YAML text itself (it starts
#: with the document's top key, ``hardware:``, ``workload:`` or ``sweep:``, or holds a newline),
#: or a dict of its keys (with or without the top key).
Document = Union[str, "os.PathLike[str]", Mapping[str, Any]]

#: ``set`` overrides: ``{"workload.tile.m": 32, "hardware.hbm.bandwidth": "2TB/s"}``, applied in
#: order, or the same as ``["workload.tile.m=32", "hardware.hbm.bandwidth=2TB/s"]``.
Overrides = Union[Mapping[str, Any], Iterable[str], None]


class DocumentInput(NamedTuple):
    """A document as ``ridgeline`` reads it: a file, or text that messages name by ``path``."""

    path: str
    text: Optional[str]


# Text made from dicts, by their JSON: a loop that passes the same dict each call converts it once.
_text_of_dict: Dict[str, str] = {}
_MAX_DICTS = 256


def plain(value: Any) -> Any:
    """``value`` with paths as strings and NumPy's numbers as Python's, recursively, so that it can
    be written as YAML or JSON."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, (str, bool)) or value is None:
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    return value


def yaml_text(root: str, body: Mapping[str, Any]) -> str:
    """The YAML document ``root: body`` in block style, keys in the dict's order."""
    return yaml.safe_dump({root: plain(body)}, sort_keys=False, default_flow_style=False,
                          allow_unicode=True)


def document_input(source: Document, root: str) -> DocumentInput:
    """Where ``ridgeline`` reads the ``root`` document (``hardware`` or ``workload``) given as
    ``source``. Text and dicts are named ``<root>`` in messages and reports; relative paths in
    them (a trace file) start at the current directory."""
    if isinstance(source, str):
        stripped = source.lstrip()
        if "\n" in source or stripped.startswith(root + ":"):
            return DocumentInput(f"<{root}>", source)
        return DocumentInput(source, None)
    if isinstance(source, os.PathLike):
        return DocumentInput(os.fspath(source), None)
    if isinstance(source, Mapping):
        body = source[root] if len(source) == 1 and root in source else source
        try:
            key = json.dumps(body)
        except (TypeError, ValueError):
            return DocumentInput(f"<{root}>", yaml_text(root, body))
        text = _text_of_dict.get(key)
        if text is None:
            if len(_text_of_dict) >= _MAX_DICTS:
                _text_of_dict.clear()
            text = _text_of_dict[key] = yaml_text(root, body)
        return DocumentInput(f"<{root}>", text)
    raise TypeError(
        f"{root} must be a path, a YAML string or a dict, not {type(source).__name__}"
    )


def _json_default(value: Any) -> Any:
    """What JSON cannot write as it is: paths as strings, NumPy's numbers as Python's."""
    converted = plain(value)
    if converted is value:
        raise TypeError(f"an override's value must be a string, number, bool, None, dict or "
                        f"list, not {type(value).__name__}")
    return converted


# Maps and lists in JSON, which is YAML's flow style; one encoder for every call.
_flow_style = json.JSONEncoder(default=_json_default)


def yaml_value(value: Any) -> str:
    """``value`` as the text after ``=`` of ``--set key=value`` (which ``ridgeline`` reads as
    YAML): a string as it is (``"2TB/s"``, ``"{m: 32, n: 32}"``), numbers as written, ``True``
    and ``False`` as ``true`` and ``false``, ``None`` as ``null`` (which removes an optional
    key), dicts and lists in flow style."""
    kind = type(value)
    if kind is str:  # the common cases first: a loop calls this for every value
        return value
    if kind is int:
        return str(value)
    if kind is float:
        return repr(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (Mapping, list, tuple)):
        return _flow_style.encode(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    raise TypeError(f"an override's value must be a string, number, bool, None, dict or list, "
                    f"not {type(value).__name__}")


def override_arguments(overrides: Overrides) -> List[str]:
    """``overrides`` as ``--set`` arguments, ``key.path=value``, in order."""
    if overrides is None:
        return []
    if type(overrides) is dict or isinstance(overrides, Mapping):
        return [f"{key}={yaml_value(value)}" for key, value in overrides.items()]
    if isinstance(overrides, str):
        return [overrides]
    arguments = list(overrides)
    for argument in arguments:
        if not isinstance(argument, str):
            raise TypeError("set must be a dict of key paths to values or a list of "
                            f"'key.path=value' strings, not a list holding {argument!r}")
    return arguments
