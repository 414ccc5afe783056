"""YAML reading that remembers line numbers, so every course error can name file and line."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tutor.errors import TutorError
from tutor.i18n import Bilingual

if TYPE_CHECKING:  # PyYAML is imported when a file is read: a course kept on disk needs none of it
    import yaml


class LineDict(dict[Any, Any]):
    """A mapping from YAML that knows its own line and the line of each key (1-based)."""

    line: int = 0
    key_lines: dict[str, int]
    value_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)

    def value_line(self, key: str) -> int:
        """The line where the text of key's value starts (a block scalar's first content line)."""
        lines: dict[str, int] = getattr(self, "value_lines", {})
        return lines.get(key, self.line_of(key))


class LineList(list[Any]):
    line: int = 0
    item_lines: list[int]


@functools.cache
def _loader() -> Any:
    """PyYAML's safe loader (libyaml's parser, ~5x faster, where built) that keeps line numbers.
    PyYAML ships no type stubs: its loaders are Any."""
    import yaml

    class Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
        pass

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _sequence)
    return Loader


def _mapping(loader: Any, node: yaml.MappingNode) -> LineDict:
    import yaml

    loader.flatten_mapping(node)
    result = LineDict()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    result.value_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, (str, int, float, bool)):
            raise yaml.constructor.ConstructorError(None, None, "a key must be plain text", key_node.start_mark)
        key = str(key)
        if key in result:
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1
        block = isinstance(value_node, yaml.ScalarNode) and value_node.style in ("|", ">")
        result.value_lines[key] = value_node.start_mark.line + (2 if block else 1)
    return result


def _sequence(loader: Any, node: yaml.SequenceNode) -> LineList:
    result = LineList(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


class YamlError(TutorError):
    """The file is not valid YAML; carries the line the parser stopped at."""

    def __init__(self, why: str, line: int):
        super().__init__(Bilingual.same(why))
        self.line = line


def read_yaml(path: Path) -> object:
    """Parse one YAML file into LineDict / LineList / scalars, or raise YamlError."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise YamlError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", 1) from None
    import yaml

    try:
        return yaml.load(text, Loader=_loader())
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        problem = exc.problem or exc.context or "invalid YAML"
        raise YamlError(problem, line) from None
    except yaml.YAMLError as exc:
        raise YamlError(str(exc).splitlines()[0] if str(exc) else "invalid YAML", 1) from None
    except (RecursionError, ValueError, OverflowError) as exc:
        raise YamlError(f"cannot read YAML: {type(exc).__name__}", 1) from None
