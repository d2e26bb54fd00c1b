"""The word gates in front of the reader's scans (``normalization.word_gate`` / ``holds_any``).

A gated pattern is scanned only in a reply that holds one of its gate words, so a gate that misses a
word one of the pattern's matches needs would silently drop that match (a self-correction not seen,
a negation not applied). Each gate must therefore hold wherever its pattern matches: checked on
every reply of the labelled corpus and on replies written for each alternative of the patterns.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chronotasks.scoring import letters, normalization, reply_text
from chronotasks.scoring.normalization import holds_any, lower, normalize

CORPUS = Path(__file__).parent / "parse_corpus"


def _words(words):
    return lambda text: holds_any(text, words)


GATES = {
    # name: (pattern, its gate: whether a lower-cased text may hold a match)
    "correction": (reply_text.CORRECTION, reply_text._may_correct),
    "condition": (reply_text._HYPOTHESIS, _words(reply_text._HYPOTHESIS_WORDS)),
    "reverse cue": (reply_text.REVERSE_CUE, _words(reply_text._REVERSE_WORDS)),
    "odd one out": (reply_text.ODD_CUE, _words(reply_text._ODD_WORDS)),
    "negation": (reply_text.NEGATION, _words(reply_text._NEGATION_WORDS)),
    "none of the options": (letters._NONE_OF_THE_OPTIONS, _words(letters._OUTSIDE_WORDS)),
}

# Replies that use each alternative of the gated patterns, as models write them
WRITTEN = [
    "B. Wait, the glaze is later: C.",
    "Actually, it is D.",
    "On second thought, A.",
    "Upon reflection the answer is C.",
    "On a closer look, B.",
    "Upon closer inspection it is Ming.",
    "On further consideration, 1972.",
    "Reconsidering: C.",
    "Looking again, the rim is older. D.",
    "Looking more closely, B.",
    "On second look it is A.",
    "Correction: the answer is C.",
    "Scratch that, B.",
    "Let me reconsider. C.",
    "Let me correct that: D.",
    "I was wrong, it is A.",
    "B... no, C.",
    "A — no, D.",
    "C; no, B.",
    "不对，应该是C。",
    "更正：B",
    "等等，是D。",
    "再看一下，是A。",
    "重新考虑后，选B。",
    "En fait, c'est C.",
    "En réalité, B.",
    "En realidad, es C.",
    "De hecho, A.",
    "Na verdade, é D.",
    "Eigentlich C.",
    "수정: B",
    "정정합니다. C",
    "訂正：D",
    "実はBです。",
    "If the glaze is Song, the order would be A, B, C, D.",
    "Assuming the rim is Ming, C.",
    "如果是宋代，答案是B。",
    "假如这是明代，选C。",
    "若是清代，则为D。",
    "B is the correct answer.",
    "C would be my choice.",
    "Image 2 is the right option.",
    "D is the odd one out.",
    "C is the outlier.",
    "A would be the exception.",
    "B is the one that differs.",
    "D belongs to a different period.",
    "C comes from a different era.",
    "B stands out.",
    "A sticks out.",
    "D doesn't belong.",
    "Not A or C.",
    "B rather than D.",
    "C instead of A.",
    "Unlike B, D is modern.",
    "Anything other than A.",
    "That rules out C.",
    "Ruling out B, it is A.",
    "C is ruled out.",
    "Eliminating D leaves B.",
    "Excluding A: C.",
    "It isn't B.",
    "是明代而非宋代。",
    "并非唐代。",
    "不是C。",
    "排除A以后选B。",
    "不属于元代。",
    "None of the given options corresponds exactly to the Liao.",
    "None of the options are correct.",
    "Liao is not among the options.",
    "The Jin is not listed in the choices.",
    "答案不在给出的选项中。",
    "选项中没有辽代。",
]


@pytest.fixture(scope="module")
def texts() -> list[str]:
    replies = [
        json.loads(line)["reply"]
        for path in sorted(CORPUS.glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    return [lower(normalize(reply)) for reply in replies + WRITTEN]


@pytest.mark.parametrize("name", sorted(GATES))
def test_gate_holds_wherever_its_pattern_matches(name: str, texts: list[str]) -> None:
    pattern, gate = GATES[name]
    matched = [text for text in texts if pattern.search(text)]
    missed = [text for text in matched if not gate(text)]
    assert not missed, f"{name}: the pattern matches {len(missed)} text(s) its gate misses, e.g. {missed[0]!r}"
    assert len(matched) >= 5, f"{name}: too few texts use the pattern to check its gate"


@pytest.mark.parametrize("reply", WRITTEN)
def test_each_written_reply_passes_the_gate_of_what_it_uses(reply: str) -> None:
    text = lower(normalize(reply))
    used = [name for name, (pattern, _) in GATES.items() if pattern.search(text)]
    assert used, f"no gated pattern matches {reply!r}: the list above no longer exercises it"
    assert all(GATES[name][1](text) for name in used)


def test_ascii_text_is_tested_for_ascii_words_only() -> None:
    words = normalization.word_gate("wait", "不对")
    assert words == (("wait",), ("wait", "不对"))
    assert holds_any("wait, it is b", words) and holds_any("不对，是b", words)
    assert not holds_any("it is b", words) and not holds_any("B. 不", words)


PROMPTS = Path(__file__).resolve().parents[2] / "prompts"


@pytest.mark.parametrize("index", range(len(normalization._INSTRUCTIONS)))
def test_instruction_echo_gates_hold_on_our_prompts_and_the_corpus(index: int, texts: list[str]) -> None:
    # the patterns blank our prompts' instructions where a model echoes them: each matches one of our prompt
    # templates, and its words (``_INSTRUCTION_PATTERNS``) are in every text it matches
    words, pattern = normalization._INSTRUCTIONS[index]
    gate = normalization.word_gate(*words)
    templates = [lower(path.read_text(encoding="utf-8")) for path in sorted(PROMPTS.rglob("*.j2"))]
    assert any(pattern.search(template) for template in templates), f"{sorted(words)}: the pattern matches none of prompts/"
    missed = [text for text in templates + texts if pattern.search(text) and not holds_any(text, gate)]
    assert not missed, f"{sorted(words)}: the pattern matches text its words miss, e.g. {missed[0][:200]!r}"


def test_markdown_gate_holds_wherever_a_mark_is_stripped() -> None:
    # (on the replies as written: normalising strips the marks)
    replies = [
        json.loads(line)["reply"]
        for path in sorted(CORPUS.glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    marked = [reply for reply in replies if normalization._MARKDOWN.search(reply)]
    assert len(marked) > 100
    assert all(holds_any(reply, normalization._MARKS) for reply in marked)
    assert not holds_any('{"final_answer": "B", "time_anchors": []}', normalization._MARKS)  # (a single underscore is no mark)
