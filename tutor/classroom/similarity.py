"""Which hand-ins are the same work: byte-identical files, and near-identical ones (the same
program under other names, layout, comments or docstrings), told by fingerprints of normalized
tokens, as MOSS and JPlag do (winnowing: Schleimer, Wilkerson and Aiken, SIGMOD 2003).

Normalized: the file parsed and printed back (layout, comments and parentheses gone), its
docstrings dropped, every name the file binds (its functions, parameters, variables, import
aliases) spelled `_`, every string `S`. What the starter already holds is everyone's, and left
out. Two files are near-identical when the Jaccard similarity of what is left reaches THRESHOLD
and each has at least MIN_OWN fingerprints of its own: a short exercise's honest solutions share
most of their few lines, and cannot be told from a copy (tests/unit/test_similarity.py measures
both on the course's independent red-team files; the figures are in its docstring).

No dependency: `copydetect` (PyPI) winnows the same way, but per file on disk and with a report
of its own; the few kB of one exercise's hand-ins need only the fingerprints.
"""

from __future__ import annotations

import ast
import builtins
import functools
import hashlib
import io
import keyword
import tokenize
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

K = 5  # tokens in a k-gram: `return _ + 1 , _` is one
WINDOW = 4  # winnowing: any shared run of K + WINDOW - 1 tokens is found
THRESHOLD = 0.8  # Jaccard of own fingerprints from which two files are near-identical
MIN_OWN = 12  # fingerprints a file must hold beyond the starter for a near-identical verdict
_KEEP = frozenset(dir(builtins)) | frozenset(keyword.kwlist)


def normalized_tokens(source: str) -> list[str]:
    """The file's tokens with layout, comments, docstrings, the names it binds and its strings'
    contents gone. A file that does not parse is only stripped of comments and layout."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return _tokens(source, frozenset())
    try:
        _drop_docstrings(tree)
        text = ast.unparse(tree)
    except (RecursionError, ValueError):
        return _tokens(source, frozenset())
    return _tokens(text, frozenset(_bound_names(tree)) - _KEEP)


def _drop_docstrings(tree: ast.AST) -> None:
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            first = body[0] if body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                node.body = body[1:] or [ast.Pass()]


def _bound_names(tree: ast.AST) -> Iterable[str]:
    """Every name the file itself binds: what a copier renames without changing the program."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            yield node.id
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name
        elif isinstance(node, ast.arg):
            yield node.arg
        elif isinstance(node, ast.alias) and node.asname:
            yield node.asname
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            yield from node.names
        elif isinstance(node, ast.ExceptHandler) and node.name:
            yield node.name


def _tokens(text: str, bound: frozenset[str]) -> list[str]:
    out: list[str] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER):
                continue
            if tok.type == tokenize.NAME:
                out.append("_" if tok.string in bound else tok.string)
            elif tok.type == tokenize.STRING or tok.type == getattr(tokenize, "FSTRING_START", -1):
                out.append("S")
            elif tok.type in (tokenize.INDENT, tokenize.DEDENT, tokenize.NEWLINE):
                out.append(tokenize.tok_name[tok.type])
            elif tok.type not in (getattr(tokenize, "FSTRING_MIDDLE", -1), getattr(tokenize, "FSTRING_END", -1)):
                out.append(tok.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass  # what was read so far stands for the file
    return out


@functools.lru_cache(maxsize=4096)  # a starter and a reference are asked for once per hand-in
def fingerprints(source: str) -> frozenset[int]:
    """The winnowed hashes of the file's normalized K-grams: in every WINDOW consecutive hashes,
    the smallest (the rightmost on a tie). A file shorter than K tokens is its one gram."""
    tokens = normalized_tokens(source)
    grams = [" ".join(tokens[i : i + K]) for i in range(max(1, len(tokens) - K + 1))] if tokens else []
    hashes = [int.from_bytes(hashlib.blake2b(g.encode(), digest_size=8).digest(), "big") for g in grams]
    if len(hashes) <= WINDOW:
        return frozenset(hashes)
    chosen = set()
    for i in range(len(hashes) - WINDOW + 1):
        window = hashes[i : i + WINDOW]
        low = min(window)
        chosen.add(low)
    return frozenset(chosen)


def jaccard(a: frozenset[int], b: frozenset[int]) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0


@dataclass(frozen=True)
class Hand:
    """One learner's file for one exercise, as compared."""

    key: str  # who handed it in (a learner and export), unique among the hands compared
    source: str


@dataclass(frozen=True)
class Match:
    """Two hand-ins that are the same work: `identical` (byte for byte) or near-identical."""

    a: str
    b: str
    identical: bool
    similarity: float


def own(source: str, starter: str) -> frozenset[int]:
    """The file's fingerprints that its starter does not hold: the learner's own work."""
    return fingerprints(source) - fingerprints(starter)


def same_work(a: frozenset[int], b: frozenset[int]) -> float | None:
    """The similarity of two files' own fingerprints when it says they are one work, else None."""
    if min(len(a), len(b)) < MIN_OWN:
        return None
    s = jaccard(a, b)
    return s if s >= THRESHOLD else None


def matches(hands: Sequence[Hand], starter: str) -> list[Match]:
    """Every pair of hand-ins that are byte-identical (whatever their length: the table says
    how short) or near-identical."""
    prints = [own(h.source, starter) for h in hands]
    found = []
    for i, a in enumerate(hands):
        for j in range(i + 1, len(hands)):
            b = hands[j]
            if a.source == b.source:
                found.append(Match(a.key, b.key, True, 1.0))
            elif (s := same_work(prints[i], prints[j])) is not None:
                found.append(Match(a.key, b.key, False, s))
    return found


def groups(keys: Sequence[str], found: Sequence[Match]) -> list[list[str]]:
    """The hand-ins joined by a match, each group in `keys`' order, groups by their first member."""
    parent = {k: k for k in keys}

    def root(k: str) -> str:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for m in found:
        ra, rb = root(m.a), root(m.b)
        if ra != rb:
            parent[max(ra, rb, key=keys.index)] = min(ra, rb, key=keys.index)
    by_root: dict[str, list[str]] = {}
    for k in keys:
        by_root.setdefault(root(k), []).append(k)
    return [g for g in by_root.values() if len(g) > 1]
