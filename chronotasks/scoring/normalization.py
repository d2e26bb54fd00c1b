"""A model reply as plain text, and the word gates in front of the readers' scans.

- ``normalize``: reasoning blocks (``<think>``) removed (an unclosed one means the reply stopped
  before answering: ""), long runs of blanks shortened, full-width forms folded (Ａ -> A, １ -> 1,
  ： -> :, 。 -> .), markdown emphasis, LaTeX ``\\boxed{}`` and answer tags unwrapped, echoes of our
  prompts' instructions and format examples blanked (``blank_instructions``).
- ``lower``: a lower-case copy whose positions are the reply's.
- ``word_gate`` / ``holds_any``: substring tests that skip a pattern's scan when none of its words occur.

Pure functions over strings; imports nothing of chronotasks.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

# A reply longer than this is read as its first HEAD and last TAIL characters: an answer sits at
# the start or the end; the middle of a run-away reply is repetition.
LONG_REPLY = 12_000
HEAD, TAIL = 2_000, 8_000

_THINK_TAGS = (
    ("<think>", "</think>"),
    ("<thinking>", "</thinking>"),
    ("<reasoning>", "</reasoning>"),
    ("◁think▷", "◁/think▷"),
)  # (the last: Kimi-VL-Thinking's markers)


def word_gate(*words: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Words one of which each match of a pattern holds, for ``holds_any``: (the ASCII ones, all)."""
    return tuple(word for word in words if word.isascii()), words


def holds_any(text: str, words: tuple[tuple[str, ...], tuple[str, ...]]) -> bool:
    """Whether ``text`` holds one of ``words`` (``word_gate``; an ASCII text is tested for the ASCII
    ones only): a substring test a word, to skip a pattern's scan (several times the cost) where the
    pattern cannot match."""
    for word in words[0] if text.isascii() else words[1]:  # (a plain loop: twice as fast as any() over a generator)
        if word in text:
            return True
    return False


# answer tags, and the special tokens a served model leaks at the end of its reply ("Answer: A</s>",
# "<|im_end|>", "<end_of_turn>")
_ANSWER_TAGS = re.compile(r"</?answer>|<\|[a-z_▁]{2,30}\|>|</?s>|<(?:end|start)_of_turn>|<[be]os>", re.IGNORECASE)
_BOXED = re.compile(r"\\boxed\s*\{\s*([^{}]{0,200}?)\s*\}|\\(?:text|textbf|mathrm)\s*\{([^{}]{0,200})\}")
_LATEX_ARROW = re.compile(r"\\(?:to|rightarrow|Rightarrow|longrightarrow|Longrightarrow|implies)(?![A-Za-z])")
_LATEX_SPACE = re.compile(r"\\[,;!:]|\\quad\b|\\[\[\]()]")  # (and the display-math brackets "\[ ... \]")
_MARKDOWN = re.compile(r"(?=[*_`$#>])(?:\*+|__+|`+|\$+|^#{1,6}[ \t]*|^>[ \t]?)", re.MULTILINE)
_MARKS = word_gate("*", "__", "`", "$", "#", ">")  # (one of which each match holds: substring tests, far faster than the pattern's scan)
# digits of other scripts, as ASCII: full-width, Arabic-Indic, Persian, Devanagari, Thai
DIGITS = {
    ch: str(i) for digits in ("０１２３４５６７８９", "٠١٢٣٤٥٦٧٨٩", "۰۱۲۳۴۵۶۷۸۹", "०१२३४५६७८९", "๐๑๒๓๔๕๖๗๘๙") for i, ch in enumerate(digits)
}
_FOLD = {
    "、": ", ",
    "،": ", ",
    "؛": "; ",
    "“": '"',
    "”": '"',
    "„": '"',
    "‘": "'",
    "’": "'",
    "「": '"',
    "」": '"',
    "『": '"',
    "』": '"',
    "【": "[",
    "】": "]",
    "《": '"',
    "》": '"',
    "〈": "<",
    "〉": ">",
    "\u00a0": " ",
    "\u3000": " ",
    "✔": " ✓ ",
    "✓": " ✓ ",
    "☑": " ✓ ",
    "✅": " ✓ ",
    "✘": " ✗ ",
    "✗": " ✗ ",
    "✖": " ✗ ",
    "❌": " ✗ ",
    "×": " ✗ ",
    "❎": " ✗ ",
    **DIGITS,
}
# (replaced where found: str.translate with a mapping costs ~50 ns a character of a non-ASCII text)
_FOLDED = re.compile("[" + re.escape("".join(_FOLD)) + "]")


def strip_reasoning(text: str) -> str:
    """The text after the last closing reasoning tag; "" when a reasoning block never closes
    (the reply was cut off while reasoning: it gives no answer)."""
    if "<" not in text and "◁" not in text:
        return text
    for open_tag, close_tag in _THINK_TAGS:
        close = text.rfind(close_tag)
        if close >= 0:
            return text[close + len(close_tag) :]
        if open_tag in text:
            return ""
    return text


class Reply(str):
    """A normalised reply: the text, and ``bold``, the (start, end) spans of it that the model's
    markdown put in bold on one line (``**B**``): models mark their answer so."""

    bold: tuple[tuple[int, int], ...] = ()


def _strip_markdown(s: str) -> Reply:
    """s without markdown emphasis, code marks and headings, remembering the bold spans."""
    if "**" not in s and "__" not in s:
        return Reply((_MARKDOWN.sub("", s) if holds_any(s, _MARKS) else s).strip())
    out: list[str] = []
    bold: list[tuple[int, int]] = []
    last = size = 0
    opened = None
    for m in _MARKDOWN.finditer(s):
        out.append(s[last : m.start()])
        size += m.start() - last
        last = m.end()
        token = m.group(0)
        if token in ("**", "__", "***"):
            if opened is not None and "\n" not in s[opened[1] : m.start()]:
                bold.append((opened[0], size))
                opened = None
            else:
                opened = (size, m.end())
    out.append(s[last:])
    text = "".join(out)
    stripped = text.strip()
    shift = len(text) - len(text.lstrip())
    reply = Reply(stripped)
    reply.bold = tuple((a - shift, b - shift) for a, b in bold if b > a)
    return reply


# The instructions of our prompts (prompts/), as a model that echoes its prompt writes them back: they
# hold format examples and option ranges ('in the format: "1, 3, 2, 4"', '(1, 2, 3, or 4)', '"1, 3"
# if options 1 and 3 are correct', 'Example: 2,1,3,0', 'Step 1: Identify visual entities.'), which are
# no answer. ``blank_instructions`` blanks each from its first word to the end of its sentence (the
# step titles and the parenthesised examples only), keeping positions, so an answer the same
# sentence goes on to give after a colon is still read.
# Each pattern with words one of which must be in the reply for it to match: only those are run (most
# replies hold none of them).
_INSTRUCTION_PATTERNS = (
    (("format",), r"\bin\s+the\s+format\s*:?\s*\"[^\"\n]{1,20}\""),
    (("must",), r"\byour\s+answer\s+must\s+(?:be\s+in\s+the\s+format|start\s+with)[^.\n]*(?:\.(?=\s|$)|$)?"),
    (
        ("simply",),
        r"\b(?:for\s+your\s+answer,?\s*)?simply\s+(?:provide|list)\s+the\s+numbers?\s+of[^\n]*?(?:\)\.?|$)"
        r"|\bfor\s+your\s+answer,?\s*simply\b[^\n]*?(?:\)\.?|$)",
    ),
    (
        ("sequence",),
        r"\bplease\s+provide\s+the\s+sequence\s+from\s+oldest\s+to\s+newest\s+by\s+listing[^\n]*?(?:order\.?|$)"
        r"|\bprovide\s+the\s+sequence\s+from\s+oldest\s+to\s+newest\s+using\s+letters\s*\([^)\n]{0,40}\)\.?",
    ),
    (
        ("separated", "corresponding"),
        r"\blist\s+(?:all\s+correct\s+letters\s+separated\s+by\s+commas|the\s+three\s+letters\s+corresponding\s+to\s+artifacts"
        r"\s+from\s+the\s+same\s+period)\s*\([^)\n]{0,60}\)\.?",
    ),
    (("identify",), r"\bidentify\s+which\s+ones?\s+(?:it\s+is|they\s+are)\s+by\s+number\s*\([^)\n]{0,30}\)\.?"),
    (
        ("explain",),
        r"\bexplain\s+why\s+you\s+think\s+(?:it\s+belongs|they\s+belong)\s+to\s+(?:a\s+different|the\s+same)\s+(?:time\s+)?period\.?",
    ),
    (
        ("letter", '"4"', "four-digit"),
        r"\banswer\s+with\s+the\s+option'?s\s+letter\s*(?:\([^)\n]{0,30}\)\s*)?from\s+the\s+given\s+choices\s+directly\.?"
        r"|\banswer\s+in\s+json\s*:\s*\{\s*\"answer\"\s*:\s*\"1\"\s*\}[^\n]{0,80}?\"4\"\s*\}\.?"
        r"|\banswer\s+with\s+a\s+single\s+four-digit\s+year\s*\(for\s+example:\s*\d{4}\)(?:\s+and\s+nothing\s+else)?\.?",
    ),
    (
        ("comma-separated",),
        r"\bprovide\s+your\s+answer\s+as\s+a\s+comma-separated\s+list\s+of\s+the\s+image\s+indices\s*\([^)\n]{0,10}\)(?:\s*only)?\.?",
    ),
    (("explanation",), r"\bdo\s+not\s+include\s+any\s+other\s+text\s+or\s+explanation\.\s*example:\s*[\d,\s]{1,20}"),
    (
        ("step",),
        r"\bstep\s*[1-4]\s*:\s*(?:identify\s+visual\s+entities|list\s+historical\s+appearance\s+times|detail\s+thinking\s+process"
        r"|perform\s+bias-check)\.?|\bfollow\s+these\s+steps\s+strictly\s*:?",
    ),
    (("structured",), r"\boutput\s+everything\s+in\s+a\s+structured\s+json\s+format\.?"),
    (
        ("represent",),
        r"(?:\"?[\da-e,\s]{1,20}\"\s*)?\(\s*where\s+these\s+numbers\s+represent\s+the\s+order\s+from\s+oldest\s+to\s+newest\s*\)\.?",
    ),
    (("e.g.",), r"\(?\s*e\.g\.,?\s*\"[^\"\n]{1,20}\"(?:\s+if\s+options\s+\w+\s+and\s+\w+\s+are\s+correct)?\s*\)?\.?"),
    (("options",), r"(?<![\w\"])\"?[a-e1-5](?:\s*,\s*[a-e1-5]){1,4}\"?\s+if\s+options\s+\w+\s+and\s+\w+\s+are\s+correct\b\.?"),
)
_INSTRUCTIONS = tuple((frozenset(words), re.compile(pattern)) for words, pattern in _INSTRUCTION_PATTERNS)
_INSTRUCTION_WORDS = word_gate(*(word for words, _ in _INSTRUCTION_PATTERNS for word in words))


_ITEM_NUMBER = re.compile(r"[ \t]*(?:[\da-z][.)]|[-*•])[ \t]*$")  # ("1." is "a." once a numbered prompt's numbers are letters)


def _item_number_before(low: str, start: int) -> int:
    """Where an echoed instruction starts, its list number with it ("1. Identify which one it is by number ...")."""
    line_start = low.rfind("\n", 0, start) + 1
    return line_start if _ITEM_NUMBER.fullmatch(low, line_start, start) else start


def blank_instructions(s: str) -> str:
    """``s`` with every echo of our prompts' instructions (``_INSTRUCTIONS``) replaced by spaces."""
    low = lower(s)
    if not holds_any(low, _INSTRUCTION_WORDS):  # (substring tests: half the time of one pattern of all the words)
        return s
    present = {word for word in _INSTRUCTION_WORDS[1] if word in low}
    spans = sorted(
        (_item_number_before(low, m.start()), m.end())
        for words, pattern in _INSTRUCTIONS
        if not words.isdisjoint(present)
        for m in pattern.finditer(low)
        if m.end() > m.start()
    )
    if not spans:
        return s
    out, last = [], 0
    for start, end in spans:
        if start < last:  # (two patterns over one echo: blank their union)
            if end > last:
                out.append(" " * (end - last))
                last = end
            continue
        out.append(s[last:start])
        out.append(" " * (end - start))
        last = end
    out.append(s[last:])
    return "".join(out)


# Lines of our prompts that a model echoes: a base (not instruction-tuned) model answers, then goes on
# writing the prompt of a new question, with its own options and its own answer; a chat model restates
# the question first. A line that opens one of our prompts ends the reply when it follows the reply's
# own words (the rest is a new question, ``_PROMPT_OPENING``); the prompt's lines that name images by
# number ("Image 1 is the first image provided.") and its image placeholders ("C. <image>", the
# options of an odd-one-out prompt echoed) are blanked wherever they are (``_PROMPT_LINE``). A
# chat template's turns leak from fine-tuned models: a leading "ASSISTANT:" is blanked, a "USER:"
# turn after the reply's own words is a new question (cut there).
_PROMPT_OPENING = re.compile(
    r"^[ \t>#-]*(?:look\s+at\s+this\s+historical\s+artifact\s+and\s+answer|below\s+are\s+\d+\s+historical\s+artifacts"
    r"|in\s+which\s+year\s+was\s+this\s+photo\s+taken|here\s+is\s+a\s+news\s+event\s*:|you\s+are\s+an\s+expert\s+in\s"
    r"|compare\s+these\s+two\s+images\s+and\s+determine|is\s+the\s+image\s+correct\s+for\s+the\s+following\s+prompt"
    r"|as\s+a\s+professional\s+\"text-to-image\"|以上是同一件文物的|(?:user|human)\s*:"
    r"|question\s*:\s*(?:which\s+(?:historical\s+period|artifact|manufacturing|of\s+these|three)|arrange\s+these))[^\n]*",
    re.MULTILINE,
)
_PROMPT_LINE = re.compile(
    r"^(?:[ \t]*(?:assistant|gpt)\s*:|[ \t>#-]*(?:image\s+\d\s+is\s+the\s+\w+\s+image\s+provided\.?"
    r"|image\s+\d(?:,\s+image\s+\d)*\s+and\s+image\s+\d\s+are\s+the\s+\w+\s+images\s+provided[^\n]*)[ \t]*$)",
    re.MULTILINE,
)
_PLACEHOLDER = re.compile(r"(?:^[ \t]*\(?[a-z0-9][.):][ \t]*)?<image>", re.MULTILINE)  # with its option's letter: "A. <image>"
_OPENING_WORDS = word_gate(
    "artifact", "photo", "news", "expert", "compare", "prompt", "以上是", "user", "human", "question"
)  # (one of which each opening holds)


def drop_prompt_echo(s: str) -> tuple[str, bool]:
    """``s`` with our prompts' lines blanked, and cut where a prompt opens after the reply's own words
    (see ``_PROMPT_OPENING``); the flag says whether anything changed."""
    low = lower(s)
    spans = []
    if "provided" in low or "assistant" in low or "gpt" in low:
        spans += [(m.start(), m.end(), False) for m in _PROMPT_LINE.finditer(low)]
    if "<image>" in low:
        spans += [(m.start(), m.end(), False) for m in _PLACEHOLDER.finditer(low)]
    if holds_any(low, _OPENING_WORDS):
        spans += [(m.start(), m.end(), True) for m in _PROMPT_OPENING.finditer(low)]
    if not spans:
        return s, False
    out: list[str] = []
    last = 0
    own, restated_to = False, 0  # (the reply's own words seen yet; where the restated prompt's lines end)
    for start, end, opening in sorted(spans):
        if start < last:
            continue
        own = own or bool(s[max(last, restated_to) : start].strip())
        if opening:
            if own:
                return "".join(out) + s[last:start].rstrip(), True  # a new prompt after the reply's own words
            restated_to = end  # the prompt restated before the reply's own words: read on
            continue
        out.append(s[last:start])
        out.append(" " * (end - start))
        last = end
    out.append(s[last:])
    return "".join(out), True


# A run of blanks says nothing: a long one (a degenerate model's padding) is shortened to a few, so no
# reader meets thousands of blanks in a row (patterns that allow blanks in two places are quadratic there).
_BLANK_RUN = re.compile(r"[ \t\u3000]{9,}")
_TRAILING_BLANKS = re.compile(r"[ \t]+(?=\n)")
_BLANK_LINES = re.compile(r"\n{4,}")


def _short_blanks(s: str) -> str:
    if "         " in s or "\t\t" in s or "\u3000\u3000" in s:  # (substring tests first: the patterns cost ~10 µs/KB)
        s = _BLANK_RUN.sub("        ", s)
    if "\n\n\n\n" in s or "\n \n" in s or "\n\t\n" in s:
        s = _BLANK_LINES.sub("\n\n\n", _TRAILING_BLANKS.sub("", s))
    return s


def normalize(text: Any, echoes: bool = True) -> Reply:
    """The reply as plain text (see the module docstring); None -> "". ``echoes=False`` for a part
    of a reply that was normalised whole already (a JSON field, a sentence): its echoes of the
    prompt were blanked then."""
    if text is None:
        return Reply("")
    s = strip_reasoning(str(text))
    if len(s) > LONG_REPLY:
        s = s[:HEAD] + "\n...\n" + s[-TAIL:]
    s = _short_blanks(s)
    if not s.isascii():
        s = _FOLDED.sub(lambda m: _FOLD[m.group(0)], unicodedata.normalize("NFKC", s))
    if "<" in s:
        s = _ANSWER_TAGS.sub("\n", s)
    if "\\" in s:
        for _ in range(2):  # \boxed{\text{B}}: the inner command first
            s = _BOXED.sub(lambda m: f"\nFinal answer: {m.group(1)}\n" if m.group(1) is not None else m.group(2), s)
        s = _LATEX_SPACE.sub(" ", _LATEX_ARROW.sub(" → ", s))
    reply = _strip_markdown(s)
    if not echoes:
        return reply
    blanked, echoed = drop_prompt_echo(blank_instructions(reply))
    if blanked is reply:
        return reply
    echo = Reply(blanked if blanked.strip() else "")  # all echo: nothing left to read
    echo.bold = tuple((a, b) for a, b in reply.bold if b <= len(echo)) if echoed else reply.bold
    return echo


def lower(s: str) -> str:
    """s in lower case, character for character (positions in it are positions in s). The cue
    patterns below are written in lower case and matched on this copy: much faster than
    case-insensitive matching."""
    low = s.lower()
    if len(low) == len(s):
        return low
    return "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in s)


def plain_text(text: Any) -> str:
    """A free-text reply as the answer text: reasoning blocks and markdown emphasis removed, the
    characters otherwise kept (full-width punctuation stays, for text-similarity metrics)."""
    if text is None:
        return ""
    return _MARKDOWN.sub("", strip_reasoning(str(text))).strip()


__all__ = [
    "DIGITS",
    "LONG_REPLY",
    "Reply",
    "holds_any",
    "lower",
    "normalize",
    "plain_text",
    "strip_reasoning",
    "word_gate",
]
