"""Line breaking for the TUI and the CLI (tutor.terminal.text_wrap): Chinese breaks between characters by
the kinsoku rules, short code stays whole, and text without Chinese breaks exactly as Rich's."""

from __future__ import annotations

import io
from pathlib import Path

from rich._wrap import divide_line as rich_divide_line
from rich.cells import cell_len

from tutor.course import read_course
from tutor.terminal.text_wrap import divide_line, for_terminal, wrap_lines

ROOT = Path(__file__).resolve().parents[2]


def lines(text: str, width: int) -> list[str]:
    cuts = divide_line(text, width)
    return [text[a:b].rstrip() for a, b in zip([0, *cuts], [*cuts, len(text)])]


def test_chinese_breaks_between_characters_and_fills_each_line():
    text = "• grad 需要一个返回标量的函数，它对第一个参数求导，并且返回梯度。"
    got = lines(text, 20)
    assert got[0].startswith("• grad 需要")  # the Latin word is not left alone on its line
    assert all(cell_len(line) <= 20 for line in got)
    assert all(cell_len(line) >= 18 for line in got[:-1])  # full lines, not broken at a space early
    assert "".join(got) == text.replace(" ", "", 0)


def test_no_line_ends_on_an_opening_mark_or_starts_with_closing_punctuation():
    text = "他说：“好的。”然后调用了函数（它返回一个新数组），再把结果《保存》下来，对吗？是的！"
    for width in range(6, 40):
        got = lines(text, width)
        assert not any(line.endswith(("（", "“", "《")) for line in got), (width, got)
        assert not any(line.startswith(tuple("，。、；：？！）”》")) for line in got[1:]), (width, got)


def test_a_short_code_span_inside_chinese_stays_whole():
    text = '在被追踪的函数里，要打印数值请用 jax.debug.print("x = {}", x)，普通的 print 只在追踪时运行一次。'
    for width in range(44, 80):  # narrower, a span of 28 cells may break (it would cost a line its room)
        assert any('jax.debug.print("x = {}", x)' in line for line in lines(text, width)), width


def test_latin_words_inside_chinese_are_not_split():
    text = "函数式的写法是使用 optimizer_state 和 learning_rate 这两个参数来描述每一步。"
    for width in range(16, 40):
        for line in lines(text, width):
            assert not line.endswith(("optimizer_", "learning_")), (width, line)


def test_a_word_wider_than_the_line_is_folded_to_fit():
    text = "路径是 /home/learner/very/long/path/to/the/workspace/file.py 好的"
    got = lines(text, 20)
    assert all(cell_len(line) <= 20 for line in got)
    assert "".join(got).replace(" ", "") == text.replace(" ", "")


def test_text_without_chinese_breaks_exactly_as_rich_breaks_it():
    course, _ = read_course(ROOT)
    texts = [b.text.en for lesson in course.lessons for b in lesson.blocks if b.text is not None]
    assert texts
    for text in texts:
        for line in text.split("\n"):
            for width in (20, 41, 76, 116):
                assert divide_line(line, width) == rich_divide_line(line, width), (width, line)


def test_wrapped_lines_hang_under_their_text_not_their_marker():
    got = wrap_lines("  1. 这是一个很长的选项，它需要换行才能在窄的终端里显示完整的内容。", 24)
    assert len(got) > 1
    assert got[0].startswith("  1. 这是")
    assert all(line.startswith("     ") and not line.startswith("      ") for line in got[1:])
    assert all(cell_len(line) <= 24 for line in got)


def test_output_that_is_not_a_terminal_is_not_wrapped():
    text = "很长的一行" * 40
    assert for_terminal(text, io.StringIO()) == text
