"""Reading a model reply as a careful grader does: where the answer is, and what hedges or rejects it
(the reply as plain text: ``normalization``).

- ``regions``: where the answer is, in the order a grader looks: after a self-correction ("wait",
  "actually", "on reflection", "no, ..."), the last answer cue ("The answer is", "Answer:",
  "正确答案是", "I'd pick", "If forced:"), a closing "... is X." sentence, an answer in bold, then a
  line that is only an answer, then conclusions ("so", "therefore", "因此"), then the whole reply;
  each cue region says whether the answer there is stated as final ("Final answer", "so", after a
  self-correction).
- ``cut_off``: where the unfinished last sentence of a reply stopped by the token limit starts.
- ``first_clause``: the answer part of a region (up to the sentence end).
- ``hedged_after``: "could also be X", "or maybe X", "也可能是X" after the answer.
- ``negated_spans``: mentions that reject an option ("not A", "rather than 1", "而非宋代").

Pure functions over strings; imports only ``normalization`` and the kinds of region (``candidates.Kind``) of
chronotasks. Every pattern is linear-time (no
nested quantifiers), so a 1 MB reply is read in milliseconds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import islice

from chronotasks.scoring.candidates import Kind
from chronotasks.scoring.normalization import holds_any, lower, word_gate

# Without an answer cue or an answer line, only a reply this short is searched as a whole for an answer.
ANYWHERE_LIMIT = 3_000
# What one reply may cost, whatever it repeats (a loop of cues or self-corrections would otherwise make the
# readers quadratic): a region after a cue ends at most REGION characters after it; of a run of more than
# 2 * MAX_CUES cues (or self-corrections), the first and last MAX_CUES distinct ones are read (a cue whose
# surroundings repeat an earlier one's word for word states the same answer).
REGION = 2_000
MAX_CUES = 12
_CUE_CONTEXT = 24  # the characters either side of a cue that make it the same as another


# ---- cues --------------------------------------------------------------------------------------
# Strong cues introduce the answer itself.
_STRONG_EN = (
    r"(?=\b(?:[aocsprfgdebmv][a-z]|i[\s'f]))(?:\b(?:answers?|options?|choices?|selections?|picks?|responses?|results?|"
    r"orders?|ordering|sequences?|arrangement|ranking|chronology)"
    r"(?:\s+(?:from\s+(?:the\s+)?\w+(?:\s+\w+)?\s+to\s+(?:the\s+)?\w+(?:\s+\w+)?|in\s+chronological\s+order|here))?"
    r"\s*(?:is|are|would\s+be|should\s+be|will\s+be|:|=|-|–|—)(?!\w)"
    r"|\bfinal\s*:"
    r"|\bi\s*(?:would|'d|will|'ll|must|shall)?\s*(?:choose|select|pick|go\s+with|say|guess|estimate|lean\s+towards?|opt\s+for|revise\s+(?:it\s+|this\s+|my\s+answer\s+)?to|settle\s+on|answer)\b"
    r"|\b(?:revised?|changed?)\s+(?:answer|it|my\s+answer)?\s*to\b"
    r"|\b(?:going|go)\s+with\b"
    r"|\bif\s+(?:i\s+(?:am|was|were)\s+|i'm\s+)?(?:forced|pressed|made)(?:\s+to\s+(?:choose|pick|answer|guess|commit)(?:\s+one)?)?\s*[:,]?"
    r"|\bif\s+i\s+(?:had|have)\s+to\s+(?:choose|pick|guess|answer|commit)(?:\s+one)?\s*[:,]?"
    r"|\b(?:odd\s+one\s+out|outlier|different\s+one|exception)\s*(?:here\s+)?(?:is|would\s+be|:)"
    r"|\b(?:closest|best\s+(?:fit|match|guess)|most\s+(?:plausible|probable)(?:\s+(?:answer|option|choice))?)\s*(?:one\s+)?(?:is|would\s+be|:)"
    r"|\b(?:but\s+)?(?:more|most)\s+likely(?:\s+(?:it'?s|it\s+is|is|:))?"
    r"|\bverdict\s*(?:is|:))"
)
_STRONG_ZH = (
    r"(?=[正最标我答故所因应则选顺排])(?:(?:正确|最终|最后|标准|我的)?答案\s*(?:应该是|应为|是|为|:)?|答\s*:"
    r"|(?:故|所以|因此|应|我|则)?选(?:择|项)?\s*(?:是|为|:)?|(?:顺序|排序|排列)\s*(?:应该是|应为|是|为|:))"
)
# "Réponse : 3", "Respuesta: B", "Antwort: C", "答え：B", "Ответ: B", "Đáp án: B", "정답: B", "الإجابة: B" (models tuned on
# or answering in other languages); a colon after the word, as an answer line writes it
_STRONG_OTHER = (
    r"(?=\b[rwaoсcdđjyulоउคا]|[答回정답최])(?:\b(?:la\s+(?:bonne\s+)?réponse\s+(?:correcte\s+)?est|la\s+respuesta\s+(?:correcta\s+)?es"
    r"|a\s+resposta\s+(?:correta\s+)?é|la\s+risposta\s+(?:corretta\s+)?è|die\s+(?:richtige\s+)?antwort\s+ist)\b"
    r"|(?:최종\s*)?(?:정답|답)은|答えは"
    r"|\b(?:réponse|respuesta|risposta|resposta|antwort|antwoord|odpowiedź|ответ|đáp\s+án|câu\s+trả\s+lời"
    r"|jawaban|cevap|yanıt)(?:\s+(?:finale?|correcta|corretta|cuối\s+cùng|akhir))?\s*[:：]"
    r"|答え\s*[:：は]|(?:정답|답)\s*[:：]|उत्तर\s*[:：]|ค(?:ำ|ํา)ตอบ\s*[:：]|(?:الإجابة|الجواب)\s*[:：])"
)
# (one guard first: most positions, inside a word, fail it once instead of each part's guard in turn)
STRONG_CUE = re.compile(r"(?=\b|[正最标我答故所因应则选顺排回정답최])(?:" + _STRONG_EN + "|" + _STRONG_ZH + "|" + _STRONG_OTHER + ")")
# Weak cues introduce a conclusion that usually holds the answer.
# The answer stated before its cue: "The artifact in image D is the odd one out.", "The second
# artifact belongs to a different time period than the others.", "Image 2 is the correct answer."
REVERSE_CUE = re.compile(
    r"(?=[iaws])\b(?:is|are|would\s+be|seems\s+to\s+be|appears\s+to\s+be)\s+(?:the\s+|my\s+)?(?:(?:correct|right|best|final|most\s+likely|likeliest|most\s+probable)\s+)?"
    r"(?:answer|option|choice)s?\b(?!\s+(?:is|are|would|because|for))"
)
# ... and, for a question about the one that differs, "X is the odd one out", "X belongs to a different period"
ODD_CUE = re.compile(
    r"(?=[iwbacdso])\b(?:(?:is|would\s+be)\s+the\s+(?:odd\s+one(?:\s+out)?|outlier|exception|different\s+one|one\s+that\s+(?:differs|stands\s+out|is\s+different|does(?:n't|\s+not)\s+belong))"
    r"|(?:belongs?|is|comes?)\s+(?:to|from)\s+a\s+different\s+(?:time\s+)?(?:period|era)|is\s+different\b"
    r"|differs?\s+from\s+the\s+(?:others|rest)|(?:stands?|sticks?)\s+out\b|does(?:n't|\s+not)\s+belong)"
)
WEAK_CUE = re.compile(
    r"(?=[sthcomn][a-z]|i[\s.])\b(?:so|therefore|thus|hence|consequently|in\s+conclusion|in\s+summary|overall|i\s+think|i\s+believe|"
    r"my\s+(?:guess|estimate|pick)|i\.e\.|namely|that\s+is)\b|(?=[因所综我应判推])(?:因此|所以|综上|我认为|我觉得|应该是|应为|判断为|推测为)",
)
# Self-corrections: what follows replaces what came before.
CORRECTION = re.compile(
    r"(?=\b(?:[waolcsru][a-z]|i\s|en\s|de\s+h|na\s+v|eig)|[.…—–\-;,不更等再重수정訂実])(?:\b(?:wait|actually|(?:on|upon)\s+(?:second\s+thought|reflection|a\s+closer\s+look|closer\s+(?:inspection|consideration)|"
    r"further\s+(?:reflection|consideration)|reconsideration)|reconsidering|"
    r"looking\s+(?:again|more\s+closely)|on\s+(?:a\s+)?(?:second|closer)\s+look|correction|scratch\s+that|let\s+me\s+(?:reconsider|correct)|i\s+was\s+wrong)\b"
    r"|(?:\.\.\.|…|—|–|-|;|,)\s*no\s*[,—–-]"
    r"|不对|更正|等等|再看|重新考虑"
    # (in other languages)
    r"|\b(?:en\s+fait|en\s+r[ée]alit[ée]|en\s+realidad|de\s+hecho|na\s+verdade|eigentlich)\b|수정\s*[:：]|정정|訂正|実は)",
)
# the head of a list item that a verdict follows: "B. mechanical printing", "- Clothing"
_OPTION_ITEM_HEAD = re.compile(r"[ \t]*(?:(?:[-*•][ \t]*)?(?:\*\*)?\(?[a-z1-9][.)][^\n]{0,60}|[-*•][ \t]*[^\n.!?;:,]{1,40})$")
# Offering another candidate after the answer: a hedge.
HEDGE = re.compile(
    r"(?=[cmopaei][a-z])\b(?:(?:could|might|may)\s+(?:also|well|equally)\s+(?:be|belong|fit|go|work|qualify|count|apply)|or\s+(?:maybe|perhaps|possibly|probably)|"
    r"(?:could|might|may)\s+(?:be\s+)?(?:swapped|switched|reversed|interchanged)|interchangeable|"
    r"(?:maybe|perhaps|possibly)\s+(?:also|even)?|alternatively|also\s+possible|either|"
    r"could\s+(?:also\s+)?go\s+either\s+way|in\s+(?:some|any|either|no\s+particular|an\s+uncertain)\s+order)\b|(?=[也或不还顺])(?:也可能|或者|或许|不排除|还有可能|顺序不确定)",
)
# The reply says it cannot answer ("I can't pin down the year", "hard to say", "无法确定").
UNSURE = re.compile(
    r"\b(?:can(?:no|')t|unable|not\s+(?:sure|certain|possible)|unsure|hard\s+to\s+(?:say|tell)|difficult\s+to|impossible)\b"
    r"|无法|不确定|难以",
    re.IGNORECASE,
)
# A mention that rejects what follows ("not A", "rather than 1", "而非宋代").
NEGATION = re.compile(
    r"(?=[nriuoe][a-z']|'|[而并不排])(?:(?:\b(?:not|rather\s+than|instead\s+of|unlike|other\s+than|rules?\s+out|ruling\s+out|ruled\s+out|"
    r"eliminat(?:e|es|ed|ing)|excluding|exclude)|n't)\b|而非|并非|不是|(?<!不)排除|不属于|而不是)",
)

# A sentence end; "D." ends a sentence only when another sentence or option letter follows
# ("... are B, C and E. A and D are older"), not in "D. Early Medieval Period" or "C. lost-wax casting".
SENTENCE_END = (
    r"(?<![A-Z(\[])\.(?=\s|$)|(?<=\))\.|[!?。\n]"
    r"|(?<=[A-Z])\.(?=\s+(?:[A-Z](?![A-Za-z])|(?:The|This|It|Its|These|Those|Both|Because|All|So|They|I|Each|None|Other|"
    r"Another|Then|However|But|Since|As|Note|Therefore|Thus|Hence)\b)|$)"
)
_CLAUSE_END = re.compile(
    r"(?=[.!?。\n;)bsa,\s])(?:"
    + SENTENCE_END
    + r"|;(?!\s*\(?[A-Z](?![A-Za-z0-9])\)?\s*(?:[;,.)]|$))|\bbecause\b|\bsince\b|\bas\s+(?:it|the|its|this)\b|\s[—–]\s"
    r"|,\s*(?:though|although|but|while|whereas|which|and\s+not)\b|\s(?:while|whereas)\b)"
)


def first_clause(region: str) -> str:
    """The answer part of a region: up to the first sentence end, newline or "because"
    (a leading newline, as in "Answer:\\nB", is skipped)."""
    region = region.lstrip(" \t:=-–—,\n\r\"'")
    m = _CLAUSE_END.search(region)
    return region[: m.start()] if m else region


# Words one of which every self-correction holds: a reply with none of them (most) is not scanned for one
_CORRECTION_WORDS = word_gate(
    "wait",
    "actually",
    "second",
    "reflection",
    "closer",
    "further",
    "reconsider",
    "looking",
    "correct",
    "scratch",
    "wrong",
    "不对",
    "更正",
    "等等",
    "再看",
    "重新考虑",
    "fait",
    "alit",
    "realidad",
    "hecho",
    "verdade",
    "eigentlich",
    "수정",
    "정정",
    "訂正",
    "実は",
)
_CORRECTING_NO = re.compile(r"no\s*[,—–-]")


def _may_correct(low: str) -> bool:
    """Whether ``low`` holds a word every self-correction needs (``CORRECTION`` is scanned only then)."""
    return holds_any(low, _CORRECTION_WORDS) or _CORRECTING_NO.search(low) is not None


def corrections(low: str) -> list[re.Match]:
    """The self-corrections (``CORRECTION``) in ``low`` (a lower-cased reply), in order. "..., no, ..."
    after the head of a list item is that item's verdict, no self-correction ("B. mechanical printing -
    No, it developed much later.", "- Clothing - no, nothing distinctly modern")."""
    if not _may_correct(low):
        return []
    return [
        m
        for m in CORRECTION.finditer(low)
        if not (m.group(0).rstrip(" ,—–-").endswith("no") and _OPTION_ITEM_HEAD.match(low, low.rfind("\n", 0, m.start()) + 1, m.start()))
    ]


def bounded(matches: list[re.Match], low: str) -> list[re.Match]:
    """A long run of cue matches cut to what a reply may cost (``MAX_CUES``): a match whose surroundings
    repeat a later one's is dropped, then the first and last ``MAX_CUES`` are kept."""
    if len(matches) <= 2 * MAX_CUES:
        return matches
    seen: set[str] = set()
    distinct = []
    for m in reversed(matches):
        key = low[max(0, m.start() - _CUE_CONTEXT) : m.end() + _CUE_CONTEXT]
        if key not in seen:
            seen.add(key)
            distinct.append(m)
    distinct.reverse()
    return distinct if len(distinct) <= 2 * MAX_CUES else distinct[:MAX_CUES] + distinct[-MAX_CUES:]


def _epochs(s: str) -> list[tuple[int, int]]:
    low = lower(s)
    cuts = [m.end() for m in bounded(corrections(low), low)]
    starts = [0] + cuts
    ends = cuts + [len(s)]
    return list(zip(starts, ends))


def line_around(s: str, start: int, end: int) -> tuple[int, int]:
    """Where the line holding s[start:end] starts and ends (its newline excluded)."""
    line_end = s.find("\n", end)
    return s.rfind("\n", 0, start) + 1, len(s) if line_end < 0 else line_end


_FIRST_LINE = re.compile(r"\S[^\n]*")
# the first of two or more lines of the same shape ("Possible sequences:\n\n* A, B, C, D\n* A, C, B, D"): items, not one
# answer line
_FIRST_OF_ITEMS = re.compile(r"(?P<head>[ \t]*(?:[-*•][ \t]*)?)[A-Z0-9][,.)\s][^\n]*\n(?:[ \t]*\n)?(?P=head)[A-Z0-9][,.)\s]")
_INTRODUCED_LINE = re.compile(r"[:：][ \t]*\n[ \t]*\n?[ \t]*(\S[^\n]{0,59})(?=\n)")


# An answer stated as the final one: "Final answer:", "So the answer is", "因此答案是".
_FINAL_MARK = re.compile(
    r"(?=[fcrusthoiadp])\b(?:final(?:ly)?|corrected|revised|updated|so|therefore|thus|hence|overall|ultimately|consequently|in\s+conclusion|in\s+summary|to\s+conclude|"
    r"in\s+the\s+end|all\s+in\s+all|on\s+balance|donc|por\s+lo\s+tanto|portanto|daher)\b|(?=[最因所综总故최따])(?:最终|最后|因此|所以|综上|总之|故|最終|최종|따라서)"
)
# "... the image from the same year is Image 1.", "The artifact that differs is artifact C.": a
# sentence that ends in its answer after "is" (the reader decides whether the end is an answer)
_CLOSINGS = 6  # of a long reply, its first and last few "... is X." sentences are read
_CLOSING = re.compile(r"(?=[iwas])\b(?:is|are|was|were|would\s+be|will\s+be|should\s+be)\s+(?=[^\n.!?。;]{1,30}(?:[.!?。;]|\n|$))")


# A line that announces a walkthrough of the options ("Let me go through the options:"): its cue
# introduces no answer.
WALKTHROUGH = re.compile(
    r"(?=[ecalgbsrECALGBSR])\b(?:each|every|evaluat|consider|examin|assess|analy[sz]|look(?:ing)?\s+at|go(?:ing)?\s+through|"
    r"let\s+me|let's|breakdown|step|check(?:ing)?\s+the|review(?:ing)?\s+the|compar(?:e|ing)\s+the)",
    re.IGNORECASE,
)


def _introduces_walkthrough(s: str, low: str, cue_start: int, cue_end: int) -> bool:
    line_end = low.find("\n", cue_end)
    if low[cue_end : len(low) if line_end < 0 else line_end].strip(" \t:："):
        return False
    return WALKTHROUGH.search(s, low.rfind("\n", 0, cue_start) + 1, cue_start) is not None


def sentence_start(low: str, pos: int, floor: int = 0) -> int:
    """Where the sentence holding ``pos`` starts (after the last . ! ? ; 。 or line break before it,
    at most 300 characters back)."""
    window = max(floor, pos - 300)
    last = max(
        low.rfind(".", window, pos),
        low.rfind("!", window, pos),
        low.rfind("?", window, pos),
        low.rfind(";", window, pos),
        low.rfind("。", window, pos),
        low.rfind("\n", window, pos),
    )
    return last + 1 if last >= 0 else window


def _is_final(low: str, cue_start: int, cue_end: int) -> bool:
    return _FINAL_MARK.search(low, sentence_start(low, cue_start), cue_end) is not None


def _bold_answers(s: str) -> list[tuple[int, int]]:
    """The bold spans of s that end their line ("The answer is **B**.", a line "**B**"); bold
    headers of a walkthrough ("- **A. Paper**: ...") and names in bold inside a sentence are not."""
    spans: list[tuple[int, int]] = []
    for a, b in getattr(s, "bold", ()):
        line_end = s.find("\n", b)
        rest = s[b : len(s) if line_end < 0 else line_end]
        if len(rest.strip(" .!)]}\"'。")) == 0:
            spans.append((a, b))
    return spans


# A line that offers another answer: "Or B, D, E.", "Alternatively: C"
_ALTERNATIVE_LINE = re.compile(r"^[ \t>*-]*(?:or|alternatively|或者)(?![\w'])[ \t,:：]*", re.MULTILINE)


# "The options are lithography, ...": the question restated, unless the options are qualified ("the correct options are")
_RESTATED_OPTIONS = re.compile(r"(?:options|choices)\s+(?:given\s+|listed\s+|provided\s+)?are\b")
# "Eliminate options: ...", "Competing option: ...", "Alternative answer: ...", "Possible sequences:": a cue for what is
# not (yet) the answer
_NOT_THE_ANSWER = re.compile(
    r"\b(?:eliminat\w*|rul(?:e|ing)\s+out|excluded?|excluding|wrong|incorrect|rejected?)\s+(?:the\s+|other\s+)?$"
    r"|\b(?:competing|alternative|rejected|runner-up|second|other|another|less\s+likely|unlikely|possible|candidate)\s+$"
)
# "All four options — photolithography, ... — are industrial": the options named in an apposition, not the answer
_APPOSITION = re.compile(r"\b(?:all|both|these|those|each\s+of\s+the)(?:\s+(?:four|three|two|five|of\s+the))?\s+$")
_QUALIFIED = re.compile(r"\b(?:correct|right|valid|applicable|final|chosen|selected|best|appropriate|my|these|three|two)\s+$")
# An answer stated under a condition ("if image 3 is Song, then the order would be 0, 1, 2, 3, 4"): a
# hypothesis the reasoning weighs, not the answer ("if forced", "if I had to choose" are cues of their own)
_HYPOTHESIS = re.compile(
    r"(?=[ia如假若])(?:(?<!even\s)(?<!as\s)\bif\b(?!\s+(?:i\s+(?:had|have|must|were|was|am)\b|i'm\b|forced|pressed|made|asked"
    r"|(?:we|you|one)\s+(?:look|consider|examine|compare|analy[sz]e|take|focus|go\s+by|judge)))"
    r"|\bassuming\b|如果|假如|若是)"
)  # ("if we look at the glaze, the answer is B" is no condition)


# words one of which each match of a pattern holds (``_HYPOTHESIS``, ``REVERSE_CUE``, ``ODD_CUE``): a reply without is not scanned
_HYPOTHESIS_WORDS = word_gate("if", "assuming", "如果", "假如", "若是")
_REVERSE_WORDS = word_gate("answer", "option", "choice")
_ODD_WORDS = word_gate("odd", "outlier", "exception", "differ", "stand", "stick", "belong")


_SUPPOSING = re.compile(r"[\s,]*(?:if|assuming)\b")  # "so if image 3 is Song, ..."


def _said(low: str, cue_start: int, floor: int) -> Kind:
    """CUE for an answer stated, HYPOTHETICAL for one stated under a condition."""
    return Kind.HYPOTHETICAL if _HYPOTHESIS.search(low, sentence_start(low, cue_start, floor), cue_start) else Kind.CUE


# (how, start, end, final): a span of the reply that may hold the answer (``regions``)
Span = tuple[Kind, int, int, int]


def regions(s: str, odd: bool = False) -> Iterator[Span]:
    """(how, start, end, final) spans of s that may hold the answer, in the order a grader reads them.

    ``how`` (a ``Kind``): CUE (after an answer cue, before "is the correct answer", or inside a
    self-correction), HYPOTHETICAL (a cue or closing in a sentence that sets a condition: "if image 3
    is Song, then the order would be ..."; ``decide`` never takes it as the answer), ODD (before "is
    the odd one out", "belongs to a different period": for a question about the one that differs),
    CLOSING (the end of a last sentence "... is X."), BOLD (a bold span ending its line), LINE (the
    first or the last line, for the caller to test as an answer line), WEAK (after a conclusion cue
    such as "so" or "因此"), ALL (the whole reply). ``final``: how finally the answer there is stated:
    0 plainly, 1 when the cue's sentence says "final", "so", "therefore", ...; 2k (2k + 1 so marked)
    after k self-corrections, so a later revision outranks an earlier one. A cue's region ends at the
    next cue. A region (FALLBACKS, 0, 0, False) marks where the fallback regions (WEAK, ALL) begin;
    ODD regions come only when asked for (``odd``: a question about the one that differs).
    """
    low = lower(s)
    supposes = holds_any(low, _HYPOTHESIS_WORDS) and _HYPOTHESIS.search(low) is not None  # (conditions and second-answer lines are rare:
    offers_another = _ALTERNATIVE_LINE.search(low) is not None  # looked for once, then only where they are)
    reverse_cues = _reverse_cues(low, odd)
    epochs = _epochs(s)
    last_epoch = len(epochs) - 1
    for i, (start, end) in enumerate(reversed(epochs)):
        revised = 2 * (last_epoch - i)  # the force of an answer here: each self-correction outranks what came before
        cues = _answer_cues(low, start, end)
        yield from _cue_regions(s, low, cues, start, end, revised, supposes)
        for how, pattern in reverse_cues:
            for m in reversed(bounded(list(pattern.finditer(low, start, end)), low)):
                sentence = sentence_start(low, m.start(), start)
                yield how, sentence, m.start(), revised + (_FINAL_MARK.search(low, sentence, m.start()) is not None)
        for m in bounded(list(_ALTERNATIVE_LINE.finditer(low, start, end)), low) if offers_another else ():  # "A, D, E\n\nOr B, D, E."
            line_end = low.find("\n", m.end())
            yield Kind.CUE, m.end(), end if line_end < 0 else min(line_end, end), False
        if i == 0:
            yield from _closing_regions(s, low, cues, start, end, revised, supposes)
        if i < last_epoch:
            yield from _correction_regions(s, low, start, end, revised)
    yield from _line_regions(s, low, epochs)
    yield Kind.FALLBACKS, 0, 0, False
    yield from _conclusions(low, *epochs[0], Kind.WEAK, False)
    yield Kind.ALL, 0, len(s), False


def _reverse_cues(low: str, odd: bool) -> list[tuple[Kind, re.Pattern]]:
    """The cues that follow their answer ("B is the correct answer"; "B is the odd one out" when ``odd``), each
    scanned for only where its words are."""
    reverse_cues = [(Kind.CUE, REVERSE_CUE)] if holds_any(low, _REVERSE_WORDS) else []
    if odd and holds_any(low, _ODD_WORDS):
        reverse_cues.append((Kind.ODD, ODD_CUE))
    return reverse_cues


def _answer_cues(low: str, start: int, end: int) -> list[re.Match]:
    """The answer cues of low[start:end]: not "The options are X, Y, Z and W.", nor "Eliminate options: X and Y
    are too early"."""
    return [
        m
        for m in bounded(list(STRONG_CUE.finditer(low, start, end)), low)
        if (not _RESTATED_OPTIONS.match(low, m.start()) or _QUALIFIED.search(low, max(0, m.start() - 12), m.start()))
        and not _NOT_THE_ANSWER.search(low, max(0, m.start() - 24), m.start())
        and not (low[m.end() - 1] in "-–—" and _APPOSITION.search(low, max(0, m.start() - 24), m.start()))
    ]


def _cue_regions(s: str, low: str, cues: list[re.Match], start: int, end: int, revised: int, supposes: bool) -> Iterator[Span]:
    """The text after each answer cue, the last first; a cue's region ends at the next."""
    for m, stop in reversed(list(zip(cues, [c.start() for c in cues[1:]] + [end]))):
        if not _introduces_walkthrough(s, low, m.start(), m.end()):
            how = _said(low, m.start(), start) if supposes else Kind.CUE
            yield how, m.end(), min(stop, m.end() + REGION), revised + _is_final(low, m.start(), m.end())


def _closing_regions(s: str, low: str, cues: list[re.Match], start: int, end: int, revised: int, supposes: bool) -> Iterator[Span]:
    """Of the last part of a reply: its closing "... is X." sentences (of a long reply, its first and last few),
    the last first; then its answers in bold."""
    cue_ends = {m.end() + k for m in cues for k in range(3)}  # "The answer is B.": the cue's own "is"
    closings = list(_CLOSING.finditer(low, start, end))
    if len(closings) > 2 * _CLOSINGS:
        closings = closings[:_CLOSINGS] + closings[-_CLOSINGS:]
    for closing in reversed(closings):
        if closing.end() not in cue_ends:  # not "The answer is B." again
            said = Kind.CUE if not supposes else _said(low, closing.start(), start)
            how = Kind.CLOSING if said == Kind.CUE else Kind.HYPOTHETICAL
            yield how, closing.end(), min(end, closing.end() + REGION), revised + _is_final(low, closing.start(), closing.end())
    if getattr(s, "bold", ()):
        for a, b in reversed(_bold_answers(s)):
            if a >= start:
                yield Kind.BOLD, a, b, revised


def _correction_regions(s: str, low: str, start: int, end: int, revised: int) -> Iterator[Span]:
    """The text after a self-correction: its conclusions, the line after the correction's own, all of it."""
    yield from _conclusions(low, start, end, Kind.CUE, revised)
    next_line = _FIRST_LINE.search(s, s.find("\n", start, end) + 1 or end, end)
    if next_line:  # "Actually, ... let me correct that.\n\nB, D\n\n(why)": the line after the correction's own
        yield Kind.LINE, next_line.start(), next_line.end(), revised
    yield Kind.CUE, start, end, revised


def _conclusions(low: str, start: int, end: int, how: Kind, revised: int) -> Iterator[Span]:
    """The text after each conclusion cue ("so", "因此") of low[start:end], the last first, read as ``how``."""
    for m in reversed(bounded(list(WEAK_CUE.finditer(low, start, end)), low)):
        yield Kind.HYPOTHETICAL if _SUPPOSING.match(low, m.end()) else how, m.end(), min(end, m.end() + REGION), revised


def _line_regions(s: str, low: str, epochs: list[tuple[int, int]]) -> Iterator[Span]:
    """The lines that may be only an answer: the last when it revises the first, the first, one introduced by
    "... are:", the last."""
    first = _FIRST_LINE.search(s)
    if not first:
        return
    last_epoch = len(epochs) - 1
    last_start = s.rfind("\n") + 1
    revised_last = last_epoch > 0 and last_start > first.start() and last_start >= epochs[-1][0]
    if revised_last:  # "2, 4, 1, 3\n\nWait, ... Let me correct the order:\n\n4, 2, 1, 3": the last line revises the first
        yield Kind.LINE, last_start, len(s), 2 * last_epoch
    yield Kind.LINE, first.start(), first.end(), False
    for m in (
        bounded(list(_INTRODUCED_LINE.finditer(s, first.start())), low) if ":" in s or "：" in s else ()
    ):  # "... are:\n\nB, C\n\n(why)"
        if s.find("\n", m.start(1)) >= 0 and not _FIRST_OF_ITEMS.match(s, s.rfind("\n", 0, m.start(1)) + 1):
            yield Kind.LINE, m.start(1), m.end(1), False
    if last_start > first.start() and not revised_last:
        yield Kind.LINE, last_start, len(s), False


_TERMINAL = frozenset(".!?。！？)]}\"'*`>…:：;；")
_WORD = re.compile(r"[A-Za-z]+|[\u4e00-\u9fff]")


# a last word that cannot end a sentence ("... did not reach India until much later, so")
_LAST_CONNECTOR = re.compile(
    r"(?:[,、]\s*|\s)(?:and|or|but|so|because|since|as|while|whereas|which|that|the|a|an|of|to|in|"
    r"with|for|from|by|than|then|is|was|were|are|would|could|as\s+well\s+as|its|their|以及|和|或"
    r"|(?:so|and|but|because|since|as|which|that|while)\s+(?:it|they|this|these|those|there|we|i))$"
)  # (lower case: "Answer: A" ends)


_LIST_ITEM = re.compile(r"[ \t]*(?:[-*•]|\d{1,2}[.)])[ \t]+\S")
_ANSWER_LINE_END = re.compile(r"(?:answer|option|choice|答案)[^\n:：]{0,30}[:：]\s*[^\n]{1,40}$", re.IGNORECASE)


_ENDS_IN_ANSWER = re.compile(r"(?<![A-Za-z])[A-Z]$|\d$")  # (a letter or a digit last: searched in the last two characters)
_KOREAN_ENDINGS = frozenset("다요죠까음함임됨오")  # the last syllables a Korean sentence ends with (without its full stop)


def cut_off(s: str) -> int | None:
    """Where the last, unfinished sentence starts when a reply stops mid-sentence (the token
    limit): nothing there is an answer. None for a reply that ends properly. A last line of four or
    more words that stops at a comma is cut off, whatever the reply's length. A long reply (300+
    characters) is cut off when its last line is a sentence of six or more words without a full
    stop; a shorter one (150+) when its other lines all end in one and the last, of four or more
    words, does not ("A. paper - Paper was not ...\nC. synthetic pigments - Synthetic")."""
    if not s or s[-1] in _TERMINAL:
        return None
    line_start = s.rfind("\n") + 1
    last_line = s[line_start:]
    # (a joining word ends the line: its match is far shorter than 200 characters)
    joint = s[-1] in ",、" or _LAST_CONNECTOR.search(last_line[-200:]) is not None
    # (its words counted up to six: no test below asks for more)
    words = sum(1 for _ in islice(_WORD.finditer(last_line), 6)) if joint or len(s) >= 150 else 0
    if joint and words >= 4:
        # a line of four words or more that stops at a comma or a joining word ("... are porcelain, paper, and")
        # stopped mid-sentence
        ends = [m.end() for m in re.finditer(r"[.!?。！？}]", last_line)]  # (its last sentence, or a JSON object repeated)
        return line_start + (ends[-1] if ends else 0)
    if "\uac00" <= s[-1] <= "\ud7a3" and s[-1] not in _KOREAN_ENDINGS and len(last_line.split()) >= 4:
        # a Korean line that stops at a particle or a connective ending ("... 당나라 시대의"): stopped mid-sentence
        ends = [m.end() for m in re.finditer(r"[.!?。！？]", last_line)]
        return line_start + (ends[-1] if ends else 0)
    if len(s) < 150:
        return None
    if _ENDS_IN_ANSWER.search(last_line[-2:]) or _ANSWER_LINE_END.search(last_line):
        return None  # (a last line that ends with the answer: "Therefore, the correct answer is: E. Ming")
    if len(s) < 300 or words < 6:
        others = [line.rstrip() for line in s[:line_start].splitlines() if line.strip()]
        item = _LIST_ITEM.match(last_line) is not None  # ("...available:\n\n- Block printing: This technique")
        if words < (3 if item else 4) or len(others) < (1 if item else 2) or any(line[-1] not in _TERMINAL for line in others):
            return None
        return line_start
    ends = [m.end() for m in re.finditer(r"(?<=[a-z0-9)\]\"'%]{2})[.!?](?=\s)|[。！？]|\n", s)]
    return ends[-1] if ends else 0


def hedged_after(rest: str, is_other) -> bool:
    """Whether ``rest`` (the text after the answer) offers another candidate: a hedge phrase
    with, in its clause, something ``is_other(text)`` says is a different answer ("... but it could
    also be B", "B might also belong")."""
    for m in HEDGE.finditer(lower(rest)):
        window = first_clause(rest[m.end() : m.end() + 80])
        before = rest[max(0, m.start() - 60) : m.start()]
        subject = re.split(r"[.!?;\n。,]|\bbut\b", before)[-1]  # "B might also belong with them"
        if is_other(window) or (subject.strip() and is_other(subject)):
            return True
    return False


_NEG_SKIP = re.compile(
    r"(?:\s*(?:the|a|an|options?|artifacts?|images?|from|in|of|by|just|even|either|clearly|really|"
    r"necessarily|quite|simply)\b)*\s*"
)
_NEG_STOP = re.compile(
    r"[.;:!?\n。，,]\s*(?!or\b|nor\b)|\b(?:but|so|it'?s|it\s+is|is|are|was|were|have|has|had|be|been|would|could|"
    r"should|will|can|do|does|did|because|since|which|that)\b|但|而是|是|的"
)


_NEGATION_WORDS = word_gate(
    "not", "rather", "instead", "unlike", "other", "rule", "ruling", "eliminat", "exclud", "n't", "而非", "并非", "不是", "排除", "不属于"
)  # (one of which each match of NEGATION holds)


def negated_spans(s: str) -> list[tuple[int, int]]:
    """Spans of text a negation rejects: what directly follows "not", "rather than", "而非", ...
    ("not A or C", "rather than 1", "不是宋代"), up to the next verb or punctuation ("not have been
    available" rejects nothing)."""
    spans: list[tuple[int, int]] = []
    low = lower(s)
    if not holds_any(low, _NEGATION_WORDS):
        return spans
    for m in NEGATION.finditer(low):
        start = _NEG_SKIP.match(low, m.end()).end()  # type: ignore[union-attr]  # matches the empty string too
        stop = _NEG_STOP.search(low, start, start + 40)
        spans.append((start, stop.start() if stop else min(len(s), start + 40)))
    return spans


def inside(pos: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= pos < b for a, b in spans)


__all__ = [
    "ANYWHERE_LIMIT",
    "CORRECTION",
    "corrections",
    "ODD_CUE",
    "REVERSE_CUE",
    "UNSURE",
    "WALKTHROUGH",
    "HEDGE",
    "NEGATION",
    "STRONG_CUE",
    "WEAK_CUE",
    "cut_off",
    "first_clause",
    "hedged_after",
    "inside",
    "line_around",
    "negated_spans",
    "regions",
    "sentence_start",
]
