"""Two different answers stated with the same force give no answer, at any distance and in every answer
kind; a later answer marked as a revision ("wait", "actually", "on reflection", "let me correct", and their
equivalents in the other languages read) replaces the earlier one.

The replies are generated: every cue (in English, Chinese and the other languages the reader knows) with
every separator (a space, a line break, a paragraph, a long stretch of reasoning between) and every answer
kind, both answers in both orders. This is a property of the reading, not a labelled corpus: the expected
reading follows from the rule alone.
"""

from __future__ import annotations

import itertools

import pytest

from chronotasks.data.answer_space import AnswerSpace

# (space, options, two different answers as a model writes them, their values)
KINDS = {
    "letter": (AnswerSpace("letter", n=4), None, ("B", "C"), ("B", "C")),
    "letter, options shown": (AnswerSpace("letter", n=4), ["Iron Age", "Song", "Modern", "Early Modern"], ("B", "D"), ("B", "D")),
    "letter_set": (AnswerSpace("letter_set", n=4), None, ("B, C", "A, D"), (frozenset("BC"), frozenset("AD"))),
    "letter_set, one and two": (AnswerSpace("letter_set", n=4), None, ("B", "B, C"), (frozenset("B"), frozenset("BC"))),
    "k_of_n": (AnswerSpace("k_of_n", n=5, k=2), None, ("B, C", "A, E"), (frozenset("BC"), frozenset("AE"))),
    "ordering": (AnswerSpace("ordering", n=4), None, ("B, D, A, C", "A, B, C, D"), (tuple("BDAC"), tuple("ABCD"))),
    "ordering of indices": (AnswerSpace("ordering", n=4, base=0), None, ("2, 0, 3, 1", "0, 1, 2, 3"), ((2, 0, 3, 1), (0, 1, 2, 3))),
    "year": (AnswerSpace("year", lo=1900, hi=2025), None, ("1987", "1962"), (1987, 1962)),
    "choice": (AnswerSpace("choice", choices=("1", "2"), key="answer"), None, ("1", "2"), ("1", "2")),
    "dynasty": (AnswerSpace("dynasty"), None, ("Song", "Ming"), ("Song", "Ming")),
}
# (a digit right after a Chinese character, "答案是2, 0, 3, 1", is not read as an image index: a space before it)
CHINESE_ANSWERS = {
    "dynasty": ("宋代", "明代"),
    "letter_set": ("B、C", "A、D"),
    "year": ("1987年", "1962年"),
    "ordering of indices": (" 2, 0, 3, 1", " 0, 1, 2, 3"),
}
# cues of equal force, each with the full stop of its language
CUES = {
    "Answer: X.": ("Answer: {}", "."),
    "The answer is X.": ("The answer is {}", "."),
    "Final answer: X.": ("Final answer: {}", "."),
    "答案是X。": ("答案是{}", "。"),
    "正确答案：X。": ("正确答案：{}", "。"),
    "Ответ: X.": ("Ответ: {}", "."),
    "Réponse : X.": ("Réponse : {}", "."),
    "答えはX。": ("答えは{}", "。"),
    "정답: X.": ("정답: {}", "."),
}
FILLER = "The glaze, the carving and the wear on the base were each compared with the reference pieces. "
SEPARATORS = {
    "space": " ",
    "line": "\n",
    "paragraph": "\n\n",
    "reasoning": " " + FILLER * 4,
    "long reasoning": "\n\n" + FILLER * 40 + "\n\n",
}
# revision marks, each put before the second answer
REVISIONS = (
    "Wait, ",
    "Actually, ",
    "On reflection, ",
    "Let me correct that. ",
    "On second thought, ",
    "不对，",
    "更正：",
    "En fait, ",
    "De hecho, ",
    "Eigentlich ",
    "実は、",
)


def _answers(kind: str, cue: str) -> tuple[str, str]:
    chinese = any("\u4e00" <= ch <= "\u9fff" for ch in cue)
    return CHINESE_ANSWERS.get(kind, KINDS[kind][2]) if chinese else KINDS[kind][2]


def _statement(cue: str, answer: str) -> str:
    pattern, stop = CUES[cue]
    return pattern.format(answer) + stop


CASES = list(itertools.product(KINDS, CUES, SEPARATORS))


@pytest.mark.parametrize(("kind", "cue", "separator"), CASES)
def test_two_answers_of_equal_force_give_none(kind, cue, separator):
    space, options, _, _ = KINDS[kind]
    first, second = _answers(kind, cue)
    for a, b in ((first, second), (second, first)):
        reply = _statement(cue, a) + SEPARATORS[separator] + _statement(cue, b)
        assert space.parse(reply, options) is None, reply


@pytest.mark.parametrize(("kind", "cue", "separator"), CASES)
def test_the_same_answer_twice_is_read(kind, cue, separator):
    """The control: without a conflict, the same replies are read (so the test above cannot pass on replies
    that are never read)."""
    space, options, _, values = KINDS[kind]
    first, _ = _answers(kind, cue)
    reply = _statement(cue, first) + SEPARATORS[separator] + _statement(cue, first)
    assert space.parse(reply, options) == values[0], reply


@pytest.mark.parametrize(("kind", "revision"), list(itertools.product(KINDS, REVISIONS)))
def test_an_answer_marked_as_a_revision_replaces_the_earlier(kind, revision):
    space, options, (first, second), (_, value) = KINDS[kind]
    for separator in (" ", "\n\n", " " + FILLER * 4):
        reply = f"The answer is {first}." + separator + revision + f"the answer is {second}."
        assert space.parse(reply, options) == value, reply
