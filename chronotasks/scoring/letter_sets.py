"""A set of option letters read from a reply, and exactly k of n ("the three of one period").

The reader lists the sets the reply states (``Candidate``s, in the order a grader reads them: a JSON
answer field, a reply that is only letters, per-option marks, a list of options introduced as the
answer, the text after an answer cue, a conclusion, what it says of availability, the whole reply) and
``candidates.decide`` keeps one only when nothing contradicts it. Within a statement a set is the one
run of options it lists ("C, D (A and B came later)": the aside is not part of the answer); two runs
("Not available: C, D. Available: A, B."), alternatives ("A or C", "C, D, and maybe B"), a letter
outside the options or no answer at all give ``None``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import chain

from chronotasks.scoring.availability import (
    ABOUT_AVAILABILITY,
    ANSWER_AFTER_PREDICATE,
    AVAILABLE,
    POLARITY,
    UNAVAILABLE,
    caption_only,
    polarity_candidate,
    said_available,
    said_unavailable,
)
from chronotasks.scoring.candidates import CONFLICT, FALLBACKS, Candidate, Kind, decide
from chronotasks.scoring.json_answer import json_answer
from chronotasks.scoring.letter_patterns import (
    ALL_BUT,
    AND,
    ARTICLE_NEXT,
    ASIDE,
    LEAD_CHARS,
    LEAD_LIST,
    LETTER_ASKED,
    LETTER_STOP,
    NOT_ARTICLE,
    OPTION_LINE,
    OR,
    OR_BETWEEN,
)
from chronotasks.scoring.letters import content_start, is_options_listing, labelled_option
from chronotasks.scoring.normalization import lower, normalize
from chronotasks.scoring.option_lists import item_block, item_lists
from chronotasks.scoring.option_marks import letter_verdicts, line_verdicts
from chronotasks.scoring.option_texts import Mentions, blank_spans, letters_for, option_mentions, option_runs, option_variants
from chronotasks.scoring.reply_text import (
    ANYWHERE_LIMIT,
    HEDGE,
    SENTENCE_END,
    UNSURE,
    cut_off,
    first_clause,
    hedged_after,
    regions,
)

_NONE_SET = re.compile(
    r"^\s*(?:none\b|no\s+(?:options?|letters?|techniques?|materials?|answers?)\b|neither\b|nothing\b|empty\b)|^\s*(?:都不|均不|全都不|全不|没有|无|以上都不|一个都没有)",
    re.IGNORECASE,
)


_ALL_SET = re.compile(
    r"^\s*(?:all\b(?:\s+(?:of\s+them|of\s+the\s+(?:above|options|listed\s+\w+)|four|five|options|the\s+options|\w+\s+\w+))?|every\s+(?:option|one|choice|letter)|each\s+option|both)"
    r"|^\s*(?:都|全部|全都|均|所有)",
    re.IGNORECASE,
)


_K_SPLIT = re.compile(SENTENCE_END + r"|;|,\s*(?:while|whereas|but)\b|\bwhile\b|\bwhereas\b")


_ENUMERATION = re.compile(r"\(?[A-Z][.)]\s+[^,;\n]+(?:(?:[,;]|,?\s+and)\s*\(?[A-Z][.)]\s+[^,;\n]+)+")


_COMPACT = re.compile(r"[\s(\[{'\"]*([A-Z]{2,26})[\s)\]}'\".]*")


# a reply that is only a list of letters: "A, C", "B and D", "(A), (C), (E)", "C & D." (read without looking for cues)
_PLAIN_LIST = re.compile(r"\s*\(?[A-Z]\)?(?:(?:[ \t]*[,&][ \t]*(?:and[ \t]+)?|[ \t]+and[ \t]+)\(?[A-Z]\)?)*[ \t]*\.?\s*")


_PLAIN_LETTER = re.compile(r"[A-Z]")


_ENUM_LETTER = re.compile(r"(?:^|[,;]|\band\b)\s*\(?([A-Z])[.)]")


_OR_NEXT = re.compile(r"\s*" + OR + r"\s*\(?[A-Z](?![A-Za-z0-9])")


_OR_WORD = re.compile(r"\s*" + OR)


_DASH_WORD = re.compile(r"\s*[-–]\s*[a-z]")


_BULLET_LINE = re.compile(r"^[ \t]*[-*•][ \t]+\S", re.MULTILINE)


_BRACKETED_LETTER = re.compile(r"\(([A-Z])\)")


def _set_in_clause(clause: str, n: int, options) -> frozenset[str] | str | None:
    """The set of letters a statement gives: a letter list, "none", "all", "all but C", ordinals,
    option texts. CONFLICT for alternatives ("A or C", "C, D, and maybe B"), two lists ("C, D ...
    A, B ...") or a letter outside the options; asides in brackets are not part of the list."""
    valid = letters_for(n)
    body = clause.strip()
    if not body:
        return None
    if LETTER_ASKED.search(body):
        return CONFLICT
    but = ALL_BUT.search(body)
    if but:
        rest = but.group(1) if but.group(1) is not None else but.group(2) or ""
        lead = LEAD_LIST.match(rest)
        excluded = set(Mentions(lead.group(1) if lead else first_clause(rest), n, options).primary())
        if excluded and excluded <= set(valid):
            return frozenset(set(valid) - excluded)
    if _NONE_SET.search(body):
        return frozenset()
    compact = _COMPACT.fullmatch(body)
    if compact and len(set(compact.group(1))) == len(compact.group(1)):  # "AC"
        return frozenset(compact.group(1)) if set(compact.group(1)) <= set(valid) else CONFLICT
    hedged = OR_BETWEEN.search(body) is not None or HEDGE.search(lower(body)) is not None
    plain = blank_spans(body, [(m.start(), m.end()) for m in ASIDE.finditer(body)]) if "(" in body or "（" in body else body
    m = Mentions(plain, n, options, allow_lower=len(body) <= 12)
    found = m.primary()
    labels = _BRACKETED_LETTER.findall(body)
    if len(labels) >= 2 and len(set(labels)) == len(labels) and {c for _, _, c in m.letters} <= set(labels):
        # "the rim fragment (B), the pot (D), and the small clay figure (E)": items named with their letters
        return CONFLICT if hedged or not set(labels) <= set(valid) else frozenset(labels)
    if _ALL_SET.search(body) and (not found or set(found) == set(valid)):
        return frozenset(valid)
    if not found:
        return CONFLICT if hedged and Mentions(body, n, options).primary() else None
    if hedged:
        return CONFLICT
    if any(c not in valid for c in found):
        return CONFLICT
    runs = option_runs(plain, m)
    if len({frozenset(r) for r in runs}) > 1:
        head = _sentence_after_letter(body, n, options)
        return _set_in_clause(head, n, options) if head else CONFLICT
    return frozenset(found)


def _sentence_after_letter(body: str, n: int, options) -> str | None:
    """The first sentence of "C, D. Terracotta and stone were in use.": a letter's full stop ends
    the sentence when what follows is not that option's text ("C. Early Medieval Period")."""
    for m in LETTER_STOP.finditer(body):
        after = body[m.end() :].lower()
        letter = ord(m.group(1)) - ord("A")
        if options and 0 <= letter < len(options) and any(after.startswith(v) for v in option_variants(options[letter])):
            continue
        return body[: m.start() + 1]
    return None


def _compact(s: str) -> str | None:
    """The letters of a reply that is only letters run together ("AC"), each once."""
    m = _COMPACT.fullmatch(s)
    if m and len(set(m.group(1))) == len(m.group(1)):
        return m.group(1)
    return None


_MORE_AFTER_ASIDE = re.compile(r"\s*(?:\([^()\n]{1,60}\)|（[^（）\n]{1,60}）)\s*(?:[,;&]|" + AND + r")\s*\(?[A-Z](?![A-Za-z0-9])")


def _lead_list(line: str, n: int, options) -> frozenset[str] | str | None:
    """A line that starts with the answer: "A, B, C. Lithography (D) is later." -> {A, B, C};
    "C. lost-wax casting, D. coil technique" -> {C, D}; "C, D (A and B came later)" -> {C, D}."""
    if _ENUMERATION.fullmatch(line.strip().rstrip(".")):
        enumerated = frozenset(_ENUM_LETTER.findall(line.strip()))
        return enumerated if enumerated <= set(letters_for(n)) else CONFLICT
    m = LEAD_LIST.match(line)
    if not m:
        return None
    rest = line[m.end() :]
    if re.match(r"\s*:\s*\S", rest) and m.group(1) == line[: m.end()].strip():
        return None  # "A: available" heads a line about option A
    if m.group(1) == "A" and (word := ARTICLE_NEXT.match(rest)) and word.group(1) not in NOT_ARTICLE:
        return None  # "A silver coin with a portrait": the article (a caption, not an answer)
    if _OR_NEXT.match(rest) or _DASH_WORD.match(rest):
        return CONFLICT if _OR_WORD.match(rest) else None
    if _MORE_AFTER_ASIDE.match(rest):  # "A（アルミニウム）とD（アクリル絵具）": the list goes on after an aside
        return _set_in_clause(first_clause(line), n, options)
    got = _set_in_clause(m.group(1), n, None)
    if got in (None, CONFLICT):
        return got
    tail = first_clause(rest.lstrip(" .;,)"))  # "B, C. D is also possible." hedges in the next sentence
    if HEDGE.search(lower(tail)) and any(c not in got for c in Mentions(tail, n, options).all()):
        return CONFLICT
    if _list_goes_on(rest, n, options, got):
        return None  # "B. C."
    return got


def _marked_structures(s: str, n: int, options, k: int | None, asks: str | None) -> Iterator[Candidate]:
    """Answers given as per-option verdicts, and (for k of n) groups said to be of one time."""
    verdicts = line_verdicts(s, n, options, asks)
    if verdicts is not None:
        yield Candidate(verdicts, 0, Kind.STRUCTURE)
    if k is not None:
        yield from _group_statements(s, n, options, k)


# "Artifacts 2, 3 and 4 all show similar features", "B, C and E share the same glaze": a group of k said to be of one time
_SAME_GROUP = re.compile(
    r"(?=[sabwcfg])\b(?:share|show\s+(?:a\s+)?(?:similar|the\s+same)|(?:are|were)\s+(?:all\s+)?(?:from|of)\s+the\s+same"
    r"|belong\s+(?:together|to\s+the\s+same)|(?:were|are)\s+(?:all\s+)?(?:likely\s+|probably\s+)?(?:made|created|produced)\s+(?:in|during)\s+the\s+same"
    r"|come\s+from\s+the\s+same|form\s+(?:a|the|one)\s+group|go\s+together)\b"
)  # (on lower(text))


_GROUP_SENTENCE = re.compile(r"[^.!?;。\n]+")


def _group_statements(s: str, n: int, options, k: int) -> Iterator[Candidate]:
    """The groups of k options a reply says are of one time, each a statement of the answer (a reply
    that opens "1, 3, 4" and explains "Artifacts 2, 3 and 4 all show similar features" gives two)."""
    valid = set(letters_for(n))
    low = lower(s)
    if UNSURE.search(s):
        return  # ("I can't determine which three ... A, C and D share some features, but so do B, C and D")
    for sentence in _GROUP_SENTENCE.finditer(low):
        same = _SAME_GROUP.search(low, sentence.start(), sentence.end())
        if same is None:
            continue
        subject = s[sentence.start() : same.start()]
        if HEDGE.search(low, sentence.start(), same.start()):
            continue
        named = {c for _, _, c in Mentions(subject, n, options).letters}
        if len(named) == k and named <= valid:
            yield Candidate(frozenset(named), sentence.start(), Kind.CLOSING)


def _cue_set(region: str, n: int, options, k: int | None) -> frozenset[str] | str | None:
    """The set after an answer cue: a list of options on the following lines ("are:\\n- B\\n- C"), or
    the first clause."""
    head = region.lstrip(" \t:：=-–—")
    if head.startswith("\n"):
        offset = len(region) - len(head) + len(head) - len(head.lstrip("\n"))
        got, _, _ = item_block(region, offset, n, options)
        if got is not None and (k is None or len(got) == k):
            return got if got <= set(letters_for(n)) else CONFLICT
    return _set_in_clause(first_clause(region), n, options)


_ONLY_SEPARATORS = re.compile(r"[\s,;&/.()*\-–—]*(?:(?:plus|also|" + AND + r")[\s,;&/.()*\-–—]*)*", re.IGNORECASE)


def _list_goes_on(rest: str, n: int, options, got) -> bool:
    """Whether a sentence after a set answer is itself only more options ("Porcelain. Paper.",
    "B. C."): the answer goes on past its first sentence, so its first sentence alone is not it."""
    for sentence in re.split(r"[.;。；\n]", rest):
        if not sentence.strip():
            continue
        named = Mentions(sentence, n, options, allow_lower=len(sentence.strip()) <= 12)
        spans = sorted((a, b) for a, b, _ in named.letters + named.texts)
        if spans and _ONLY_SEPARATORS.fullmatch(blank_spans(sentence, spans)) and set(named.all()) - set(got):
            return True
    return False


def _lead_candidate(s: str, lo: int, n: int, options, k: int | None) -> Candidate | None:
    """A line that starts with the answer and goes on ("A, C. Lithography (D) is later.", "None of the
    above. All of these were available."): a fallback reading."""
    hi = s.find("\n", lo)
    region = s[lo : min(len(s) if hi < 0 else hi, lo + LEAD_CHARS)]  # a line that starts with the answer: its start
    if k is None and said_available(region):
        return None  # a group said (not) available: which group answers is the polarity's call
    got = _lead_list(region, n, options)
    if got is None and len(first_clause(region)) <= 40:
        clause = first_clause(region)
        got = _set_in_clause(clause, n, options)
        named = got if isinstance(got, frozenset) else frozenset()
        if got not in (None, CONFLICT) and hedged_after(region[len(clause) :], lambda w: bool(set(Mentions(w, n, options).all()) - named)):
            got = CONFLICT  # "I would group A, C and E. B might also belong with them"
        if got not in (None, CONFLICT) and _list_goes_on(region[len(clause) :], n, options, got):
            got = None  # "Porcelain. Paper."
    if got not in (None, CONFLICT) and k is not None and len(got) != k:
        got = None  # "B and E stand out as outliers: ..." names the other two of five
    return Candidate(got, lo, Kind.LEAD)


# Chinese items joined by 和 / 与 / 及 / 、 before what is said of them ("失蜡法和石雕在这个时期都已经可以使用")
_ZH_ITEMS = re.compile(r"[\u4e00-\u9fff]{2,8}(?:(?:和|与|及|以及|、)[\u4e00-\u9fff]{2,8})+")


_ZH_JOINT = re.compile(r"和|与|以及|及|、")


_ANY_LETTER = re.compile(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])")  # a reply that gives option letters is read by them


def _names_unknown_items(s: str, options) -> bool:
    """Whether a reply that names options joins in a Chinese list items that name none (options rendered in words
    our Chinese names do not hold, "泥条盘筑和手捏成型", "施釉和石雕 ..., 失蜡法也有"): the options read would be a part
    of the set the reply gives (read only in a reply that names its options by text alone)."""
    if not option_mentions(s, options):
        return False
    for m in _ZH_ITEMS.finditer(s):
        named = [bool(option_mentions(item, options)) for item in _ZH_JOINT.split(m.group(0))]
        if not all(named[1:]):  # (the first item may run on from the words before the list)
            return True
    return False


_NO_ANSWER = Candidate(None, 0, Kind.BARE)  # (``_whole_reply_set``: read as a whole, the reply states no answer)


def letter_set_candidates(s: str, n: int, options, k: int | None = None, asks: str | None = None) -> Iterator[Candidate | None]:
    """The sets of letters a normalised reply states, in the order a grader reads them. ``asks``:
    "available" or "unavailable", what the question asks for (TAB-VLM technique / material)."""
    whole = _whole_reply_set(s, n, options, k, asks)
    if whole is not None:
        if whole is not _NO_ANSWER:
            yield whole
        return
    yield from _region_sets(s, n, options, k, asks)


def _sized(got, k: int | None, committed: bool = True):
    """A set of the wrong size for k-of-n: no answer (CONFLICT when the statement commits to it)."""
    if got in (None, CONFLICT) or k is None or len(got) == k:
        return got
    return CONFLICT if committed else None


def _whole_reply_set(s: str, n: int, options, k: int | None, asks: str | None) -> Candidate | None:
    """A reply read as a whole, without looking for cues: only letters ("A, C", "AC", "[B, D]"), one option as
    the question lists it ("D. coil technique"), a JSON answer, per-option marks; a caption of the image
    (``_NO_ANSWER``: no candidates), a list of items some of which name no option (CONFLICT)."""
    valid = letters_for(n)
    letters = _PLAIN_LETTER.findall(s) if _PLAIN_LIST.fullmatch(s) else []
    if not letters and (listed := labelled_option(s, n, options)):
        letters = [listed]
    if letters and len(set(letters)) == len(letters) and set(letters) <= set(valid) and (k is None or len(letters) == k):
        return Candidate(frozenset(letters), 0, Kind.BARE)
    if asks is not None and caption_only(s, n, options):
        return _NO_ANSWER
    if options and not s.isascii() and not _ANY_LETTER.search(s) and _names_unknown_items(s, options):
        return Candidate(CONFLICT, 0, Kind.CUE)  # the set would be a part of what the reply names
    found = json_answer(s) if "{" in s or s.lstrip().startswith("[") else None
    if found is not None:
        inner = normalize(found[1], echoes=False)
        value = decide(letter_set_candidates(inner, n, options, k, asks), None) if inner else None
        return Candidate(CONFLICT if value is None else value, found[0], Kind.JSON, True)
    compact = _compact(s)
    if compact is not None:
        return Candidate(_sized(frozenset(compact), k) if set(compact) <= set(valid) else CONFLICT, 0, Kind.BARE)
    bare = s.strip(" .。!\"'")
    if len(bare) <= 60 and LEAD_LIST.fullmatch(bare):  # "C, D", "A、C、E", "[B, D]": only the answer
        return Candidate(_sized(_set_in_clause(bare, n, None), k), 0, Kind.BARE)
    marked = None if ABOUT_AVAILABILITY.search(s) else letter_verdicts(s, n)  # (marks said of availability: read with the polarity)
    return None if marked is None else Candidate(_sized(marked, k), 0, Kind.BARE)


def _region_sets(s: str, n: int, options, k: int | None, asks: str | None) -> Iterator[Candidate | None]:
    """The sets stated in the regions of a reply (``regions``), the structures (lists, verdicts) before its
    lines, and the fallback readings (``_fallback_sets``) only when no answer was stated."""
    listing = is_options_listing(s)
    cut = cut_off(s)  # (where a reply stopped by the token limit stops: read once)
    covered: list[tuple[int, int]] | None = None  # the spans of the lists read as structures (read once)
    leads: list[int] = []  # lines that start with an answer and go on: read after the polarity, if at all
    stated = False  # a committed answer was yielded
    for how, lo, hi, final in regions(s):
        if how == Kind.FALLBACKS:
            if not stated:
                yield from _fallback_sets(s, n, options, k, asks, cut, leads)
            yield FALLBACKS
            continue
        region = s[lo:hi]
        if how == Kind.LINE:
            if covered is None:
                lists = item_lists(s, n, options, k, cut)
                covered = [span for _, span in lists]
                for cand in chain([cand for cand, _ in lists], _marked_structures(s, n, options, k, asks)):
                    stated = stated or cand.value is not None
                    yield cand
            if (listing and OPTION_LINE.match(region)) or any(a <= lo <= b for a, b in covered):
                continue  # (an option line of a listing; a line that is only an answer above a walkthrough is read)
            if LEAD_LIST.fullmatch(region.strip().rstrip(".")):  # a line that is only the answer
                got = _lead_list(region, n, options)
                stated = stated or got is not None
                yield Candidate(_sized(got, k), lo, Kind.LINE, final)
            else:
                leads.append(lo)
        elif how == Kind.ALL:
            yield Candidate(_set_anywhere(region, n, options, k), 0, how)
            return
        elif how == Kind.CLOSING:  # "... the three from the same period are A, C and D."
            clause = first_clause(region).strip(" .!*")
            if LEAD_LIST.fullmatch(clause):
                stated = True
                yield Candidate(_sized(_set_in_clause(clause, n, None), k), content_start(s, lo, hi), how, final)
        elif how != Kind.BOLD:
            got = _stated_set(region, how, n, options, k, asks)
            stated = stated or got is not None
            yield Candidate(_sized(got, k, how == Kind.CUE), content_start(s, lo, hi), how, final)


def _stated_set(region: str, how: Kind, n: int, options, k: int | None, asks: str | None) -> frozenset[str] | str | None:
    """The set after an answer cue or a conclusion: for k of n, the clause naming k letters when the first
    names another number; a conclusion about the group the question does not ask for is no answer."""
    got = _cue_set(region, n, options, k)
    clause = first_clause(region)
    if k is not None and how == Kind.CUE and (got is None or (got != CONFLICT and len(got) != k and not _ends_here(clause, region))):
        picked = _k_clause(region, n, options, k)
        if picked is not None:
            got = picked
    if (
        how == Kind.WEAK
        and asks in POLARITY
        and got not in (None, CONFLICT)
        and got
        and said_unavailable(clause) not in (None, POLARITY[asks])
    ):
        # "..., so lithography and mechanical printing would not have been available." asked which were available:
        # a conclusion about the other group, not the answer (an answer after a cue stands as given)
        return None
    return got


def _fallback_sets(
    s: str, n: int, options, k: int | None, asks: str | None, cut: int | None, leads: list[int]
) -> Iterator[Candidate | None]:
    """Read only when no answer was stated (what the reply says of each option's availability is its explanation
    then): "C and D would not have been available. A and B would.": with the question's polarity the groups are
    the answer, without it two groups are no answer; then the lines that start with options and go on."""
    polarity = polarity_candidate(s, n, options, asks, cut) if k is None else None
    # (not the line a cut-off reply stops in: "• Silk — ... by c. 2450 BCE, so";
    # nor an item of a bulleted walkthrough: "• Stone — available (the tools themselves).")
    walkthrough = len(_BULLET_LINE.findall(s)) >= 2
    lead = [
        c
        for c in (
            _lead_candidate(s, lo, n, options, k)
            for lo in leads
            if (cut is None or s.find("\n", lo) != -1) and not (walkthrough and _BULLET_LINE.match(s, lo))
        )
        if c is not None
    ]
    if len({c.value for c in [polarity, *lead] if c is not None and c.value is not None}) > 1:
        # "A, C. Lithography (D) is later.", "Porcelain. Paper was also not available.", "Porcelain.\nPaper.": the
        # answer the reply opens with, what it says of availability and the lines that start with options disagree
        yield Candidate(CONFLICT, 0, Kind.LEAD)
    yield polarity
    yield from lead


def parse_letter_set(
    text, n_options: int = 4, options: Sequence[str] | None = None, k: int | None = None, asks: str | None = None
) -> frozenset[str] | None:
    """The set of option letters a reply gives, or None.

    "A, C", "A and C", "AC", "[A, C]", "答案：C、D", "A ✓ B ✗ C ✓ D ✗", "A – yes, B – no, ...",
    per-option table rows, "None" (the empty set), "all of them", "every option but C", "the first
    and the third", option texts, a list of options one a line under "The correct options are:".
    Alternatives ("A or C", "C, D, and maybe B"), two different lists, a letter outside the options
    or no answer give None. With ``k``, the answer must have exactly k letters (and a clause naming
    exactly k letters is preferred when the reply names the others too).
    """
    s = normalize(text)
    if not s:
        return None
    return decide(letter_set_candidates(s, n_options, options, k, asks), cut_off(s))


def _ends_here(clause: str, region: str) -> bool:
    return len(region.strip()) - len(clause.strip()) < 3


def _k_clause(s: str, n: int, options, k: int) -> frozenset[str] | str | None:
    """The one clause of s naming exactly k letters ("B, D, E are from the same period; A and C are
    older"); CONFLICT when clauses name different k-sets or one names alternatives."""
    picked = set()
    hedged = False
    for clause in _K_SPLIT.split(s):
        got = _set_in_clause(clause, n, options)
        if got == CONFLICT:
            hedged = hedged or OR_BETWEEN.search(clause) is not None or HEDGE.search(lower(clause)) is not None
        elif got is not None and len(got) == k:
            picked.add(got)
    if hedged and picked:
        return CONFLICT
    if len(picked) > 1:
        return CONFLICT
    return picked.pop() if picked else None


def _set_anywhere(s: str, n: int, options, k: int | None) -> frozenset[str] | str | None:
    if len(s) > ANYWHERE_LIMIT or UNSURE.search(s):
        return None
    if k is None and (UNAVAILABLE.search(s) or AVAILABLE.search(s)) and not ANSWER_AFTER_PREDICATE.search(lower(s)):
        return None  # which options a statement of availability answers depends on the question (``polarity_candidate``)
    if k is not None:
        got = _k_clause(s, n, options, k)
        if got is not None:
            return None if got == CONFLICT else got
    if len(s) > 200:
        return None
    got = _set_in_clause(s, n, options)
    return None if got == CONFLICT or (k is not None and got is not None and len(got) != k) else got


def parse_k_of_n(text, n_options: int, k: int, options: Sequence[str] | None = None) -> frozenset[str] | None:
    """Exactly k distinct option letters out of n (e.g. the 3 contemporaneous of 5), else None."""
    return parse_letter_set(text, n_options, options, k=k)


__all__ = ["letter_set_candidates", "parse_k_of_n", "parse_letter_set"]
