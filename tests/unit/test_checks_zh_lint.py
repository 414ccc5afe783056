"""The zh half of a check's messages, read from checks.py without running it, follows the course's
Chinese rules (validate reports each finding at its checks.py line)."""

from __future__ import annotations

from tutor.course.checks_source import chinese_strings
from tutor.course.markdown_lint import zh_plain_problems

SOURCE = """
def check_a(x):
    expect(
        ok,
        "english only, (with parens), and: colons",
        f"计数是 {n:g} 而不是 {m}:你的函数原地修改了它"
        "(例如 `f(x)`)，也写成了静态(static_argnums)。",
    )
    fail("ok", "形状应为 `(4,)`、`(4, 200)`；请用 `jnp.mean`。")
    fail("ok", "代码里写了 `a，b`，【新】的值")
"""


def test_chinese_strings_are_found_with_their_lines_and_fstrings_read_whole():
    found = chinese_strings(SOURCE)
    assert [line for line, _ in found] == [6, 9, 10]  # an implicit concatenation is one message
    assert found[0][1].startswith("计数是 0 而不是 0:你的函数原地修改了它(例如 `f(x)`)")


def test_each_rule_fires_on_the_message_that_breaks_it_and_not_on_clean_ones():
    by_line = {line: zh_plain_problems(text) for line, text in chinese_strings(SOURCE)}
    assert any("ASCII punctuation" in p and "':你'" in p for p in by_line[6])
    assert any("ASCII parentheses around Chinese text" in p for p in by_line[6])
    assert by_line[9] == []  # code spans keep ASCII, and ， 、 ； are right outside them
    assert any("full-width '，' inside code" in p for p in by_line[10])
    assert any("【新】" in p for p in by_line[10])


def test_an_ascii_parenthesis_against_a_chinese_character_is_found():
    assert any("parenthesis against" in p for p in zh_plain_problems("被标成了静态(static_argnums)"))
    assert zh_plain_problems("被标成了静态（static_argnums）") == []
