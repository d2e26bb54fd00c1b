"""The failure families A-L found in model replies, each read as a careful grader reads it.

Replies are written the way GPT-4o, Claude, Gemini, Qwen2.5-VL (English and Chinese), InternVL,
LLaVA-OneVision and small rambling models answer our prompts (prompts/tabvlm, prompts/chronovision,
prompts/tempviz); the expected value is the grader's reading, None where a grader finds no single
committed answer. Precision first: a reply is read only when exactly one answer is committed and
nothing in it contradicts that answer.
"""

from __future__ import annotations

import pytest

from chronotasks.data.answer_space import AnswerSpace
from chronotasks.scoring.candidates import CONFLICT, Candidate, decide
from chronotasks.scoring.t2i import parse_verdict

S = frozenset
LETTER = AnswerSpace("letter", n=4)
LOC = AnswerSpace("letter", n=5)
SET = AnswerSpace("letter_set", n=4)
GROUP = AnswerSpace("k_of_n", n=5, k=3)
ORDER = AnswerSpace("ordering", n=4)
INDICES = AnswerSpace("ordering", n=4, base=0)
YEAR = AnswerSpace("year", lo=1946, hi=2025)
EARLIER = AnswerSpace("choice", choices=("1", "2"), key="answer", asks="earlier")
NEWS = AnswerSpace("choice", choices=("1", "2", "3", "4"), key="answer")
PERIOD = AnswerSpace("dynasty")
TECHNIQUES = ["screen printing", "iron forging", "wheel-thrown pottery", "hand-painted miniature"]
MATERIALS = ["paper", "stone", "synthetic pigments", "gold"]
PERIODS = [
    "Iron Age (1800 - 200 BCE)",
    "Modern India (1857 AD - Present)",
    "Bronze Age (3300 - 1800 BCE)",
    "Early Medieval Period (650 - 1200 AD)",
]
DYNASTIES = ["Song", "Qing", "Yuan", "Tang", "Ming"]


def read(space, reply, options=None):
    return space.parse(reply, options)


# ---- the conflict check itself -----------------------------------------------------------------------
def test_decide_keeps_one_uncontradicted_answer():
    cue = Candidate("B", 40, "cue")
    assert decide([cue, Candidate("B", 0, "line")]) == "B"
    assert decide([cue, Candidate("C", 60, "line")]) is None  # a later answer line disagrees
    assert decide([cue, Candidate("C", 0, "cue")]) is None  # two answer statements, none final
    assert decide([Candidate("B", 40, "cue", final=True), Candidate("C", 0, "cue")]) == "B"  # revised
    assert decide([cue, Candidate("C", 0, "weak")]) == "B"  # a fallback never contradicts
    assert decide([Candidate(CONFLICT, 0, "cue"), cue]) is None  # the statement itself hedges
    assert decide([cue, Candidate(CONFLICT, 80, "cue")]) is None  # a later statement names alternatives
    assert decide([cue, Candidate(CONFLICT, 10, "cue")]) == "B"  # deliberation before the answer
    assert decide([Candidate("B", 400, "cue")], cut=300) is None  # in the unfinished last sentence
    assert decide([Candidate("B", 0, "all")], cut=300) is None  # no fallback of a cut-off reply
    assert decide([]) is None


# ---- A: set answers that state both groups ----------------------------------------------------------
@pytest.mark.parametrize(
    "reply,expected",
    [
        ("C, D (A and B came later)", S("CD")),
        ("B, C (screen printing and hand-painted miniatures came much later)", S("BC")),
        ("Not available: A, C. Available: B, D.", None),  # two groups: which one answers?
        ("A ✗\nB ✓\nC ✓\nD ✗", S("BC")),
        ("A – no\nB – yes\nC – yes\nD – no", S("BC")),
        # marks under "Available?" answer only with the question's polarity (asks; see the batch 2 and 11 tests)
        (
            "| Option | Technique | Available? |\n|---|---|---|\n| A | screen printing | ✗ |\n| B | iron forging | ✓ |\n"
            "| C | wheel-thrown pottery | ✓ |\n| D | hand-painted miniature | ✗ |",
            None,
        ),
        ("- Screen printing: No\n- Iron forging: Yes\n- Wheel-thrown pottery: Yes\n- Hand-painted miniature: No", S("BC")),
        ("Iron forging and wheel-thrown pottery would have been available; screen printing would not.", None),
        ("The answer is B and C; A and D are modern.", S("BC")),
    ],
)
def test_family_a_complements_and_per_option_verdicts(reply, expected):
    assert read(SET, reply, TECHNIQUES) == expected


@pytest.mark.parametrize(
    "reply,asks,expected",
    [
        # the question's polarity (TAB-VLM material: "would NOT have been available"; technique: "would")
        (
            "Porcelain (C) and iron (D) were not available in prehistoric times, while terracotta (A) and stone (B) were.",
            "unavailable",
            S("CD"),
        ),
        (
            "Porcelain (C) and iron (D) were not available in prehistoric times, while terracotta (A) and stone (B) were.",
            "available",
            S("AB"),
        ),
        ("Porcelain (C) and iron (D) were not available in prehistoric times, while terracotta (A) and stone (B) were.", None, None),
        ("terracotta and stone would have been available; porcelain and iron would not", "unavailable", S("CD")),
        ("C and D would not have been available.", "available", None),  # only the other group: no answer stated
        ("The answer is C, D. Terracotta and stone were both in use.", "unavailable", S("CD")),
    ],
)
def test_family_a_groups_with_the_questions_polarity(reply, asks, expected):
    space = AnswerSpace("letter_set", n=4, asks=asks)
    assert space.parse(reply, ["terracotta", "stone", "porcelain", "iron"]) == expected


# ---- B: per-option structure, with or without a final line ------------------------------------------
def test_family_b_walkthrough_then_final_line():
    reply = (
        "Let me evaluate each option:\n\n**A. Paper** – Not available. Paper reached India much later.\n"
        "**B. Stone** – Available; the object itself is stone.\n"
        "**C. Synthetic pigments** – Not available; these are 19th-century.\n"
        "**D. Gold** – Available in some regions.\n\n**Final answer: A, C**"
    )
    assert read(SET, reply, MATERIALS) == S("AC")
    walkthrough_only = (
        "- **A**: A painted grey ware bowl — Iron Age.\n- **B**: A copper coin with a Persian legend.\n"
        "- **C**: An iron spearhead.\n- **D**: A black-and-red ware pot."
    )
    assert read(LETTER, walkthrough_only) is None  # every option described, none chosen
    closing = walkthrough_only + "\n\nA, C, and D all fit the Iron Age. The artifact that belongs to a different time period is **B**."
    assert read(LETTER, closing) == "B"
    quoted = "> **Answer:** C\n>\n> The seal's script dates it to the Harappan period."
    assert read(LETTER, quoted) == "C"


def test_family_b_list_under_an_answer_line():
    assert read(SET, "The correct options are:\n\n- **B. iron forging**\n- **C. wheel-thrown pottery**", TECHNIQUES) == S("BC")
    three = (
        "The three artifacts that appear to be from the same period are:\n\n1. **Artifact A** – a bronze figure.\n"
        "2. **Artifact B** – a bronze lamp.\n3. **Artifact E** – a bronze vessel.\n\nC and D are later."
    )
    assert read(GROUP, three) == S("ABE")


# ---- C: an option named by its text, a paraphrase or a translation ---------------------------------------
@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        (LETTER, "Answer: Bronze Age (3300 - 1800 BCE)", PERIODS, "C"),
        (LETTER, "青铜时代（公元前3300年－公元前1800年）", PERIODS, "C"),
        (LOC, "这件文物属于唐代。", DYNASTIES, "D"),
        (SET, "铁器锻造和轮制陶器", TECHNIQUES, S("BC")),
        (SET, "答案：纸张和合成颜料", MATERIALS, S("AC")),
        (LETTER, "It looks Mughal to me.", PERIODS, None),  # a paraphrase no option text names
    ],
)
def test_family_c_option_texts_and_translations(space, reply, options, expected):
    assert read(space, reply, options) == expected


# ---- D: positions instead of letters; one item per line ----------------------------------------------
@pytest.mark.parametrize(
    "space,reply,expected",
    [
        (ORDER, "Image 3 → Image 1 → Image 4 → Image 2", ("C", "A", "D", "B")),
        (GROUP, "The first three.", S("ABC")),
        (LETTER, "Artifact #3 is the odd one out.", "C"),
        (LETTER, "第二件文物属于不同的时期。", "B"),
        (SET, "C\nD", S("CD")),
        (GROUP, "1. C\n2. A\n3. B", S("ABC")),
        (GROUP, "1. A\n2. C\n3. D", S("ACD")),
        (GROUP, "1. A\n2. C", None),  # two of three
    ],
)
def test_family_d_positions_and_item_lines(space, reply, expected):
    assert read(space, reply) == expected


def test_family_d_item_lines_with_option_texts():
    assert read(SET, "1. B — iron forging\n2. C — wheel-thrown pottery", TECHNIQUES) == S("BC")


# ---- E: stated direction ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "space,reply,expected",
    [
        (ORDER, "Ranked from newest (1) to oldest (4):\n1. B\n2. D\n3. A\n4. C", ("C", "A", "D", "B")),
        (ORDER, "B is the most recent; before it comes D, before that A, and C is the oldest.", ("C", "A", "D", "B")),
        (INDICES, "From most recent to oldest: 2, 0, 1, 3", (3, 1, 0, 2)),
        (ORDER, "按从新到旧的顺序：B、D、A、C", ("C", "A", "D", "B")),
        (ORDER, "From oldest to newest:\n- C\n- A\n- D\n- B", ("C", "A", "D", "B")),
        (ORDER, "Looking at the styles:\n- A is Harappan\n- B is Mughal\n- C is Gupta\n- D is colonial", None),
    ],
)
def test_family_e_direction(space, reply, expected):
    assert read(space, reply) == expected


# ---- F: JSON variants -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "space,reply,expected",
    [
        (EARLIER, "{'thinking': 'Image 2 shows older cars.', 'answer': '2'}", "2"),
        (EARLIER, '{"thinking": "wool jerseys in image 1", "answer": "1",}', "1"),
        (EARLIER, '{"analysis": "...", "final_answer": "Image 1"}', "1"),
        (EARLIER, '{"reasoning": "...", "choice": "2"}', "2"),
        (EARLIER, '{"分析": "图1中的汽车更老", "答案": "1"}', "1"),
        (EARLIER, '{"answer": "first"}', "1"),
        (EARLIER, '{"answer": "image_2"}', "2"),
        (LETTER, '{"answer": "C"}', "C"),
        (SET, '{"selected_options": ["B", "C"]}', S("BC")),
        (YEAR, "{'year': 1987, 'confidence': 60}", 1987),
        (EARLIER, '{"answer": "Cannot be determined"}', None),
        (EARLIER, '{"answer": "1"}\n\nActually, on reflection, Image 2 is earlier.', "2"),  # revised after the JSON: the revision
    ],
)
def test_family_f_json_variants(space, reply, expected):
    assert read(space, reply) == expected


# ---- G: revisions and negations ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        (LETTER, "Answer: A\n\nCorrection: on closer inspection the glaze is later. Answer: D", None, "D"),
        (LETTER, "B. Wait, actually the inscription is Brahmi, so it is C.", None, "C"),
        (YEAR, "Not 1968 — the banners and the stadium point to the 1972 Munich Games. Year: 1972", None, 1972),
        (SET, "Everything but B.", None, S("ACD")),
        (SET, "All of them except paper.", MATERIALS, S("BCD")),
        (ORDER, "C, A, D, B. Actually, D might be older than A: C, D, A, B.", None, ("C", "D", "A", "B")),
        (LOC, "It is not Song; the answer is Yuan.", DYNASTIES, "C"),
    ],
)
def test_family_g_revisions_and_negations(space, reply, options, expected):
    assert read(space, reply, options) == expected


# ---- H: two answers, hedges, repetition loops, ranges: no answer -------------------------------------------
@pytest.mark.parametrize(
    "space,reply",
    [
        (LETTER, "Answer: C\nAnswer: B"),
        (LETTER, "The answer is C.\n\nB"),
        (LETTER, "It is either A or D; I can't tell from the image."),
        (GROUP, "The three artifacts could be A, C, D or A, C, E."),
        (YEAR, "The photo was taken between 2010 and 2014."),
        (YEAR, "2003/2004"),
        (EARLIER, "Image 1 image 1 image 2 image 1 image 2 image 2 image 1 image 2"),
        (NEWS, 'The answer is either {"answer": "1"} or {"answer": "3"}.'),
        (PERIOD, "明末清初"),
        (INDICES, "[3,1,2,0]\n[3,1,0,2]"),
        (YEAR, "This was taken in 2016, the year of the Rio Olympics, or possibly 2017."),
        (SET, "B, C\n\nAnswer: B, C, D"),
    ],
)
def test_family_h_two_answers_and_hedges(space, reply):
    assert read(space, reply) is None


# ---- I: a committed answer with a caveat ----------------------------------------------------------------
# The rule: a caveat that only doubts the answer keeps it ("though I'm not certain"); a caveat that
# names another option as possible is a hedge (None); a forced pick ("If forced: Yuan", "If I had to
# choose: B") is committed.
@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        (LETTER, "Answer: A (but C is also possible)", None, None),
        (SET, "B, C. D is also possible.", TECHNIQUES, None),
        (LETTER, "Answer: A, though I'm not fully certain.", None, "A"),
        (LOC, "It's hard to be sure from one photo. If forced: Yuan.", DYNASTIES, "C"),
        (LETTER, "I can't be certain, but if I had to choose: B", None, "B"),
        (YEAR, "My best single estimate is 1980, though I'm not very confident.", None, 1980),
    ],
)
def test_family_i_caveats(space, reply, options, expected):
    assert read(space, reply, options) == expected


# ---- J: informal verdicts and off-scale ratings ------------------------------------------------------------
@pytest.mark.parametrize(
    "prompt,reply,expected",
    [
        ("standard", "Y", True),
        ("standard", "N", False),
        ("standard", "Negative.", False),
        ("standard", "Not really.", False),
        ("standard", "Affirmative.", True),
        ("judging", "ANALYSIS: The borders match.\nRATING: Superb", True),
        ("judging", "ANALYSIS: Good detail.\nRATING: Great", True),
        ("judging", "RATING: Very Good", True),
        ("judging", "RATING: Good/Very Good", True),
        ("judging", "ANALYSIS: modern borders.\nrating - very poor", False),
        ("judging", '{"analysis": "The map shows the German Confederation.", "rating": "Accept"}', True),
        ("judging", "{'analysis': 'Unified Italy is anachronistic', 'rating': 'Not accept'}", False),
        ("judging", "RATING: Very poor / Poor / Good / Very good / Excellent", None),
        ("judging", "RATING: Partially accept", None),
        ("standard", "Yes. However, the dog's eyes look young, so no.", None),
    ],
)
def test_family_j_verdicts(prompt, reply, expected):
    assert parse_verdict(reply, prompt) is expected


# ---- K: News-Multimodal prose ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "reply,expected",
    [
        ("The answer is Image 1 (2019).", "1"),
        ("Operation Banner ended in 2007. Image 4 shows digital-era vehicles, so the image from the same year is Image 4.", "4"),
        (
            "Schempp was decided in 1963. Image 1 looks early 1960s, while Image 3 looks late 1940s. The image from the same year "
            "is Image 1.",
            "1",
        ),
        ("Image 2 (1985) or Image 3 (1987) — hard to say.", None),
    ],
)
def test_family_k_news_prose(reply, expected):
    assert read(NEWS, reply) == expected


# ---- L: ISO dates, LaTeX arrows, Chinese prose for the two-image choice ------------------------------------
@pytest.mark.parametrize(
    "space,reply,expected",
    [
        (YEAR, "Estimated date: 2012-05-14", 2012),
        (YEAR, '{"year": "2016-08", "confidence": 40}', 2016),
        (ORDER, r"The order is $\boxed{C \to A \to D \to B}$", ("C", "A", "D", "B")),
        (ORDER, r"\boxed{C \rightarrow A \rightarrow D \rightarrow B}", ("C", "A", "D", "B")),
        (EARLIER, "图2中的球员穿着老式棉质球衣，因此图2更早。", "2"),
        (EARLIER, "第一张图片的年代更早，第二张是现代的。", "1"),
    ],
)
def test_family_l_dates_latex_chinese(space, reply, expected):
    assert read(space, reply) == expected


# ---- cut off by the token limit -----------------------------------------------------------------------------
def test_a_reply_cut_off_mid_walkthrough_gives_no_answer():
    reply = (
        "To determine which techniques would have been available, we first need to date the terracotta piece. "
        "The figure shows a stylized female form with applied ornaments, characteristic of the Mauryan–Shunga "
        "period (c. 3rd–1st century BCE).\n\nNow let's consider each option:\n\n"
        "A. **Hand carving**: Hand carving has been practiced since prehistoric times, so it"
    )
    assert read(SET, reply, ["hand carving", "digital printing", "hand-painted miniature", "stone masonry"]) is None
    answered_first = (
        "B. Early Modern Period (1526 - 1858 AD)\n\n" + "The coin has Persian inscriptions which were used "
        "during the Mughal period. " * 8 + "The Early Modern Period is the period when the Mughal"
    )
    assert read(LETTER, answered_first, PERIODS) == "B"


# ---- found by blind batch 2 (families, written afresh here; the batch's own rows are in the corpus) -----------
AVAILABILITY_TABLE = (
    "| Option | Material | Available? |\n|---|---|---|\n| A | Paper | ✅ Yes |\n| B | Stone | ✅ Yes |\n"
    "| C | Synthetic pigments | ❌ No |\n| D | Gold | ✅ Yes |"
)


@pytest.mark.parametrize("asks,expected", [("unavailable", S("C")), ("available", S("ABD")), (None, None)])
def test_marks_under_an_availability_header_follow_the_questions_polarity(asks, expected):
    """✅/❌ in an "Available?" column say whether an option was available, not whether it answers."""
    assert AnswerSpace("letter_set", n=4, asks=asks).parse(AVAILABILITY_TABLE, MATERIALS) == expected


ZH_AVAILABILITY_TABLE = (
    "| 选项 | 材料 | 当时是否可用 |\n|---|---|---|\n| A | paper | ✅ 可用 |\n| B | silver | ✅ 可用 |\n"
    "| C | synthetic fiber | ❌ 不可用 |\n| D | plastic | ❌ 不可用 |\n\n答案：C, D"
)  # blind batch 11


@pytest.mark.parametrize("asks,expected", [("unavailable", S("CD")), ("available", None), (None, S("CD"))])
def test_a_rows_own_words_after_its_mark_do_not_turn_the_headers_polarity(asks, expected):
    """ "❌ 不可用" is the row's mark and its label; the header ("当时是否可用", was it available) says what
    the marks mean. Asked for the unavailable ones, the table and the answer line agree; asked for the
    available ones, the answer line contradicts the table: no answer; without the polarity the answer line
    is the one committed answer."""
    assert (
        AnswerSpace("letter_set", n=4, asks=asks).parse(ZH_AVAILABILITY_TABLE, ["paper", "silver", "synthetic fiber", "plastic"])
        == expected
    )


@pytest.mark.parametrize(
    "reply,expected",
    [
        ('Image 2 is earlier because the cars are older.\n\n{"thinking": "Image 2 shows older cars", "answer": "1"}', None),
        ('{"thinking": "The second photo shows wool jerseys, so it is older than the first image.", "answer": "2"}', "2"),
        ('{"thinking": "Image 1 is grayscale, but its phones are modern, so it was taken later than Image 2.", "answer": "2"}', "2"),
        ('{"reasoning_path": "Image 2 has a round beacon, so it was taken earlier than Image 1.", "answer": "1"}', None),
    ],
)
def test_a_json_answer_contradicted_by_its_own_reasoning_is_no_answer(reply, expected):
    assert read(EARLIER, reply) == expected


def test_item_lists_end_where_prose_starts():
    reply = (
        "Materials that would not have been available:\n\n- **A. Paper** — reached India much later.\n"
        "- **C. Synthetic pigments** — 19th-century chemistry.\n\nStone (B) was available, and gold (D) was worked early.\n\n"
        "**Answer: A, C**"
    )
    assert read(SET, reply, MATERIALS) == S("AC")


def test_two_orderings_offered_with_a_pronoun_after_them():
    reply = "The sequence is either C, A, B, D or C, B, A, D; I can't choose between them."
    assert read(ORDER, reply) is None


# ---- found by blind batch 3 --------------------------------------------------------------------------------
def test_a_walkthrough_of_some_options_is_no_list_of_answers():
    cut_short = (
        "A. screen printing - Screen printing is a 20th-century technique and was not available then.\n"
        "B. iron forging - Iron forging was practised across India by the first millennium BCE.\n"
        "C. wheel-thrown pottery - Wheel"
    )
    assert read(SET, cut_short, TECHNIQUES) is None
    assert read(SET, "B. iron forging\nC. wheel-thrown pottery", TECHNIQUES) == S("BC")


@pytest.mark.parametrize(
    "space,reply,expected",
    [
        (YEAR, "2015\n\nThe cars and the phones in the crowd suggest the photo was taken in 2016.", None),  # two estimates
        (YEAR, "2015\n\nThe phones resemble the iPhone 6, which was released in 2014.", 2015),  # evidence, not an estimate
        (LETTER, "The artifact that belongs to a different time period is artifact B. It is a glazed jar, while the rest are bronze.", "B"),
        (LETTER, "C。C是一件青花瓷，其余三件都是青铜器。", "C"),
    ],
)
def test_answers_stated_once_and_twice(space, reply, expected):
    assert read(space, reply) == expected


# ---- hardening before blind batch 4 (replies written for the families above) ------------------------------
@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        (LETTER, "C?", PERIODS, None),  # asked, not answered
        (SET, "I'm not sure. B?", TECHNIQUES, None),
        (LETTER, "Let me analyze each option:\n\nA. Iron Age (1800 - 200 BCE): The artifact shows", PERIODS, None),  # cut off
        (ORDER, "C, A, and then B and D in some order.", None, None),
        (
            INDICES,
            "- Image 0: Qing famille rose\n- Image 1: Song celadon\n- Image 2: Ming blue-and-white\n- Image 3: Tang sancai\n\n3,1,2,0",
            None,
            (3, 1, 2, 0),
        ),  # descriptions, then the order
    ],
)
def test_questions_cut_off_walkthroughs_and_descriptions(space, reply, options, expected):
    assert read(space, reply, options) == expected


# ---- found by blind batch 4 --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        (
            SET,
            "The materials that would not have been available are:\n\nA, C\n\n(Paper reached India late; synthetic "
            "pigments are 19th-century.)",
            MATERIALS,
            S("AC"),
        ),
        (
            LETTER,
            "After comparing the glazes, the one from a different period is:\n\nD\n\nIt is a porcelain jar; the others are bronze.",
            None,
            "D",
        ),
        (GROUP, "The three from the same period are:\n\nA, B, E\n\nC and D are later.", None, S("ABE")),
    ],
)
def test_an_answer_line_under_a_line_ending_in_a_colon(space, reply, options, expected):
    assert read(space, reply, options) == expected


# ---- found by blind batch 5 --------------------------------------------------------------------------------
@pytest.mark.parametrize("asks,expected", [("unavailable", S()), ("available", S("ABCD")), (None, None)])
def test_all_options_said_available(asks, expected):
    reply = "All of these materials would have been available when this artifact was made."
    assert AnswerSpace("letter_set", n=4, asks=asks).parse(reply, MATERIALS) == expected


@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        (INDICES, "Either 3,1,2,0 or 3,2,1,0 — images 1 and 2 are very close in style.", None, None),
        (INDICES, "3,2,1,0 — images 1 and 2 are close, but the glaze of 2 is earlier.", None, (3, 2, 1, 0)),
        (YEAR, "I can't pin down the year: the phones and signs fit the late 2010s, but nothing separates 2017 from 2018.", None, None),
        (
            YEAR,
            '{"year": 2011, "confidence": 50}\n\nActually, the banner reads 2012. Corrected:\n\n{"year": 2012, "confidence": 80}',
            None,
            2012,
        ),
        (LETTER, "The artifact in image **C** is the odd one out; the others are bronze coins.", None, "C"),
        (LETTER, "The third artifact belongs to a different time period than the others because it is printed.", None, "C"),
        (LETTER, "At first glance C stands out because of its colour, but the real outlier is A.", None, "A"),
        (LETTER, "The most likely answer is B, though A is also possible.", None, "B"),  # rule I: a ranked pick
        (
            EARLIER,
            '{"analysis": "Image 2 shows a tablet on the lectern.", "earlier_image": "Image 1", "later_image": "Image 2"}',
            None,
            "1",
        ),
        (PERIOD, "清代仿明宣德款", None, "Qing"),
        (PERIOD, "A Qing dynasty copy in the style of the Ming.", None, "Qing"),
    ],
)
def test_families_of_batch_5(space, reply, options, expected):
    assert read(space, reply, options) == expected


# ---- found by blind batches 8 and 9 (replies as their writers wrote them) ------------------------------------
NUMBERED_LETTER = AnswerSpace("letter", n=4, numbered=True)
NUMBERED_SET = AnswerSpace("letter_set", n=4, numbered=True, asks="available")
NUMBERED_ORDER = AnswerSpace("ordering", n=4, numbered=True)


@pytest.mark.parametrize(
    "space,reply,expected",
    [
        # the prompt's instructions and format examples echoed back are no answer
        (
            NUMBERED_ORDER,
            'The answer is in the format: "1, 3, 2, 4" (where these numbers represent the order from oldest to newest).',
            None,
        ),
        (
            NUMBERED_ORDER,
            'Your answer must be in the format: "1, 3, 2, 4" (where these numbers represent the order from oldest to newest).',
            None,
        ),
        (NUMBERED_LETTER, "For your answer, simply provide the number of the correct option (1, 2, 3, or 4).", None),
        (NUMBERED_SET, "1, 3 if options 1 and 3 are correct.", None),
        (
            EARLIER,
            "Step 1: Identify visual entities.\nStep 2: List historical appearance times.\nStep 3: Detail thinking process.\n"
            "Step 4: Perform Bias-Check.\nOutput everything in a structured JSON format.",
            None,
        ),
        # ... but an answer given beside them is read, and so is a bare reply that happens to equal the example
        (NUMBERED_ORDER, "Answer: 2, 4, 1, 3 (where these numbers represent the order from oldest to newest)", ("B", "D", "A", "C")),
        (NUMBERED_ORDER, "1, 3, 2, 4", ("A", "C", "B", "D")),
        (
            EARLIER,
            "Step 1: Identify visual entities. Image 1 shows a rotary phone; Image 2 a smartphone.\n"
            'Step 4: Perform Bias-Check. The conclusion holds without colour.\n{"answer": "1"}',
            "1",
        ),
    ],
)
def test_echoes_of_the_prompt_are_no_answer(space, reply, expected):
    assert read(space, reply) == expected


@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        (
            NUMBERED_LETTER,
            "**Artifact 3** is different.\n\n**Explanation:** The standing lady figure is a terracotta figurine with the "
            "moulded ornaments typical of the Shunga period (2nd–1st century BCE). The rectangular slab and both coins, "
            "including the Ma'bar coin of the Madurai Sultanate, date from the medieval period.",
            [
                "Rectangular slab (Archaeology)",
                "Coin (Coin)",
                "Standing Lady Figure (Archaeology)",
                "Ma'bar Coin (Numismatics and Epigraphy)",
            ],
            "C",
        ),
        (
            NUMBERED_LETTER,
            "Answer: 1\n\nOn closer consideration, the object shows a polished surface and a moulded decoration with a beaded "
            "border, which is more typical of the early historic period than of the Iron Age. The correct answer is therefore "
            "**3. Classical Period (200 BCE - 650 AD)**.",
            [
                "Iron Age (1500 - 200 BCE)",
                "Medieval (650 - 1526 AD)",
                "Classical Period (200 BCE - 650 AD)",
                "Modern India (1857 AD - Present)",
            ],
            "C",
        ),
    ],
)
def test_x_is_different_and_revisions_on_closer_consideration(space, reply, options, expected):
    assert read(space, reply, options) == expected


@pytest.mark.parametrize(
    "prompt,reply,expected",
    [
        (
            "standard",
            "Yes, the image is correct for the prompt. However, the temporal knowledge is not applied, as there is no snow "
            "and the grass is green.",
            None,
        ),
        (
            "standard",
            "Yes, the fox is correct, but no, the temporal knowledge is not applied, since there is no snow and the trees have "
            "green leaves.",
            None,
        ),
        ("standard", "Yes. The fox has its thick winter coat and the ground is covered in snow.", True),
        ("standard", "No. The leaves are green, so it is not January.", False),
    ],
)
def test_a_verdict_taken_back_for_the_prompts_second_question_is_none(prompt, reply, expected):
    assert parse_verdict(reply, prompt) is expected


def test_a_short_reply_is_remembered_per_space_and_options_never_across_them():
    """Short replies are read once per (space, reply, options) and remembered: the same text under
    other options, or another space, is read anew."""
    assert read(LETTER, "Qing", DYNASTIES[:4]) == "B"
    assert read(LETTER, "Qing", ["Tang", "Song", "Yuan", "Qing"]) == "D"
    assert read(LETTER, "Qing") is None
    assert read(NUMBERED_LETTER, "2") == "B" and read(LETTER, "2") is None
    assert read(PERIOD, "Qing") == "Qing"


# ---- found by blind batch 10 ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        (
            AnswerSpace("letter_set", n=4, asks="unavailable"),
            "None of these — all of the listed materials would have been available when this coin was minted.",
            ["gold", "terracotta", "silver", "copper"],
            S(),
        ),
        (
            AnswerSpace("letter_set", n=4, asks="unavailable"),
            "C and D — lost-wax casting and coil — would not have been available.",
            ["lithography", "mechanical printing", "lost-wax casting", "coil technique"],
            S("CD"),
        ),
        (
            AnswerSpace("letter_set", n=4, asks="available"),
            "这件陶器的制作年代大约在公元前2世纪左右，当时可用的技术包括：\n\n- 失蜡铸造（C）：这种技术在印度河文明时期就已出现，",
            ["lithography", "mechanical printing", "lost-wax casting", "coil technique"],
            None,
        ),  # cut off: the list may go on
        (
            YEAR,
            '{"year": 2000, "confidence": 100}{"year": 2000, "confidence": 100}{"year": 2000, "confidence": 100}{"year": 2000,',
            None,
            2000,
        ),  # a loop cut off after whole answers
    ],
)
def test_families_of_batch_10(space, reply, options, expected):
    assert read(space, reply, options) == expected


# ---- found by blind batch 11 ----------------------------------------------------------------------------------
STYLE_OPTIONS = [
    "Iron Age (1800 - 200 BCE)",
    "Bronze Age (3300 - 1800 BCE)",
    "Early Medieval Period (650 - 1200 AD)",
    "Modern India (1857 AD - Present)",
]


@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        # a base model answers, then writes the prompt of a new question (with its own options): the first answer counts
        (
            LETTER,
            "D\n\nLook at this historical artifact and answer the following question:\n\n<image>\n\nQuestion: Which historical "
            "period does this Coin belong to?\n\nPlease select the correct option from the following choices:\nA. Iron Age (1800 - 200 BCE)\nB.",
            STYLE_OPTIONS,
            "D",
        ),
        (
            YEAR,
            " 1984\n\nIn which year was this photo taken? Infer it from the visual evidence in the image.\nAnswer with a single "
            "four-digit year (for example: 1998) and nothing else. 1991",
            None,
            1984,
        ),
        (
            NEWS,
            ' {"answer": "1"}\n\nHere is a news event: "A demo sports event number 2 happens."\nImage 1, Image 2, Image 3 and '
            "Image 4 are the four images provided, in that order; they were taken in four different years.\nWhich image was taken "
            'in the same year as the event described above?\nAnswer in JSON: {"answer": "3"}',
            None,
            "1",
        ),
        # ... a base model that only continues the prompt gives no answer
        (
            EARLIER,
            "\nImage 3 is the third image provided.\nImage 4 is the fourth image provided.\nOutput your analysis and final choice "
            "in JSON format.\n\nCompare these two images and determine which one appeared EARLIER in history.\nImage 1 is the first "
            "image provided.",
            None,
            None,
        ),
        # ... while a chat model that restates the question first is read
        (LETTER, "Question: Which historical period does this artifact belong to?\nAnswer: B", STYLE_OPTIONS, "B"),
        # option numbers between Chinese words
        (NUMBERED_SET, "3和4", None, S("CD")),
        # a JSON answer revised in prose, then given again
        (
            AnswerSpace("year", lo=1946, hi=2025),
            '{"year": 1999, "confidence": 40}\n\nActually, the phone in the man\'s hand is a flip phone '
            'with a colour screen, which suggests the early 2000s.\n{"year": 2003, "confidence": 55}',
            None,
            2003,
        ),
    ],
)
def test_families_of_batch_11(space, reply, options, expected):
    assert read(space, reply, options) == expected


# ---- found by blind batch 12 ----------------------------------------------------------------------------------
def test_a_bold_answer_above_a_walkthrough_that_names_each_option_again_after_its_mark():
    reply = (
        "**B, D**\n\n- **A. Screen printing** – ❌ Industrial screen printing is a 20th-century technique; not relevant to a "
        "pre-modern miniature.\n- **B. Weaving** – ✅ Weaving was practiced in India for millennia and would certainly have been "
        "available.\n- **C. Digital printing** – ❌ Late 20th century.\n- **D. Hand-building clay** – ✅ One of the oldest craft "
        'techniques.\n\nNote that "available" here means in existence at the time — not that these techniques were used to make '
        "the painting itself."
    )
    options = ["screen printing", "weaving", "digital printing", "hand-building clay"]
    assert AnswerSpace("letter_set", n=4, asks="available").parse(reply, options) == S("BD")
    assert AnswerSpace("letter_set", n=4, asks="unavailable").parse(reply, options) is None  # the answer line and the marks disagree


# ---- found by blind batches 13 and 14 -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        # "None of the above", then the reason: every option was available, so none unavailable
        (
            AnswerSpace("letter_set", n=4, asks="unavailable"),
            "None of the above. Porcelain, bronze, paper and copper were all available at the time this coin was minted, so none of the "
            "listed materials would have been unavailable.",
            ["porcelain", "bronze", "paper", "copper"],
            S(),
        ),
        # "All of these materials — (the options named) — would have been available": the dash aside is inside the statement
        (
            AnswerSpace("letter_set", n=4, asks="unavailable"),
            "All of these materials — stone, silk, copper and synthetic pigments — would have been available when this archaeological "
            "collection was created, since the objects appear to date from the 19th century, after the invention of synthetic pigments such "
            "as Prussian blue and ultramarine.",
            ["stone", "silk", "copper", "synthetic pigments"],
            S(),
        ),  # (was read as all four;
        # the reason after ", since" is a statement of its own)
        (
            AnswerSpace("letter_set", n=4, asks="unavailable"),
            "All of these materials — stone, silk, copper and synthetic pigments — would have been available when this coin was minted.",
            ["stone", "silk", "copper", "synthetic pigments"],
            S(),
        ),
        # two option lines of the odd-one-out prompt echoed with their image placeholders: no single answer
        (LETTER, "C. <image>\n\nD. <image>", ["Rectangular slab", "Coin", "Standing Lady Figure", "Ma'bar Coin"], None),
        # Kimi-VL-Thinking's reasoning markers: the answer is what follows them, not the year the thinking settled on
        (YEAR, "◁think▷The uniforms look like the early 1990s; the Gulf War was 1990-1991. I'll answer 1991.◁/think▷1994", None, 1994),
        (
            LOC,
            "◁think▷Famille rose was developed in the Kangxi-Yongzheng period. So the answer is Qing, which is option E.◁/think▷E. Qing",
            ["Song", "Tang", "Ming", "Yuan", "Qing"],
            "E",
        ),
        (YEAR, "◁think▷The uniforms look like the early 1990s, so probably 1991, but", None, None),  # the thinking never closed
    ],
)
def test_families_of_batches_13_and_14(space, reply, options, expected):
    assert read(space, reply, options) == expected


def test_a_rating_followed_by_a_line_that_is_another_rating_is_no_verdict():
    from chronotasks.scoring.t2i import UNPARSED, parse_graded_rating

    assert parse_graded_rating("ANALYSIS: The image shows a red fox in the snow.\nRATING: Accept\nNot accept") is UNPARSED
    assert parse_graded_rating("ANALYSIS: The image shows a red fox in the snow.\nRATING: Accept\nThe fox is clear.") is True
    assert parse_graded_rating("RATING: Not accept\nNot accept") is False  # the same rating repeated is still one verdict


# ---- found by blind batches 15 and 16 -------------------------------------------------------------------------
SEQUENCE_OPTIONS = ["Stone implement (Tools)", "Ram (Terracotta)", "Coin (Coin)", "Image of Narasimha (Archaeology)"]
UNAVAILABLE = AnswerSpace("letter_set", n=4, asks="unavailable")


@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        # a small captioner answers with a caption: "A" is its article, not option A
        (UNAVAILABLE, "A silver coin with a portrait of a man on it.", ["porcelain", "bronze", "paper", "copper"], None),
        # a list cut off by the token limit at "and": the group may be incomplete
        (
            UNAVAILABLE,
            "The image shows a coin with a portrait of a king. The materials that would not have been available when "
            "this coin was created are porcelain, paper, and",
            ["porcelain", "bronze", "paper", "copper"],
            None,
        ),
        # a year given, then revised after "looking again" (the revision's year follows a dash, not the cars it cites)
        (YEAR, "1991. Hmm, looking again at the car models in the background, they seem slightly newer — 1994.", None, 1994),
        # a LoRA-tuned model leaks the chat template's role label
        (
            NUMBERED_LETTER,
            "ASSISTANT: 4. The fourth artifact is a printed postcard, which belongs to the modern period, while the "
            "others are ancient or medieval objects.",
            None,
            "D",
        ),
        (LETTER, "B\nUSER: And what period is this one from?\nASSISTANT: C", None, "B"),  # an invented next turn is not this answer
        # "Answer" in another language
        (NUMBERED_LETTER, "Réponse : 3", None, "C"),
        # MMBench-style bracketed letters, and Chinese names beside image indices
        (ORDER, "(A), (B), (D), (C)", None, ("A", "B", "D", "C")),
        (INDICES, "0（唐）, 2（宋）, 3（明）, 1（清）", None, (0, 2, 3, 1)),
        # an order given in the options' texts, with or without their letters
        (
            ORDER,
            "The chronological order from oldest to newest is: Stone implement, Ram, Image of Narasimha, Coin.",
            SEQUENCE_OPTIONS,
            ("A", "B", "D", "C"),
        ),
        (ORDER, "From newest to oldest: Coin, Image of Narasimha, Ram, Stone implement.", SEQUENCE_OPTIONS, ("A", "B", "D", "C")),
        (ORDER, "Stone implement (A) → Ram (B) → Image of Narasimha (D) → Coin (C)", SEQUENCE_OPTIONS, ("A", "B", "D", "C")),
        (ORDER, "Stone implement (B) → Ram (A) → Image of Narasimha (D) → Coin (C)", SEQUENCE_OPTIONS, None),  # text and letter disagree
        (ORDER, "The coin is probably the newest and the stone implement the oldest.", SEQUENCE_OPTIONS, None),  # two of four placed
    ],
)
def test_families_of_batches_15_and_16(space, reply, options, expected):
    assert read(space, reply, options) == expected


@pytest.mark.parametrize(
    "reply,expected",
    [
        ("Sí.", True),
        ("Oui, l'image correspond au prompt.", True),
        ("Nein.", False),
        ("いいえ。", False),
        ("Non-temporal cues dominate the image.", None),
    ],
)
def test_a_yes_or_no_in_another_language(reply, expected):
    assert parse_verdict(reply, "standard") is expected


# ---- set answers whose first sentence is not the whole answer (found while reading batch 15) --------------------
MATERIALS4 = ["porcelain", "bronze", "paper", "copper"]


@pytest.mark.parametrize(
    "reply,expected",
    [
        ("A bronze coin with a portrait of a man on it.", None),  # a caption: the material of the thing shown
        ("A copper coin and a paper note.", None),
        ("Bronze and copper.", S("BD")),
        ("Porcelain and paper were not yet in use.", S("AC")),
        ("Porcelain. Paper.", None),  # the list goes on past its first sentence
        ("B. C.", None),
        ("Porcelain.\nPaper.", None),
        ("Porcelain. Paper was also not available.", None),  # the opening answer and the statement disagree
        ("A, C. Lithography (D) is later.", None),
        ("Porcelain. It was invented much later.", S("A")),
        ("C, D (A and B came later)", S("CD")),
    ],
)
def test_a_set_answer_is_the_whole_answer_or_none(reply, expected):
    assert read(UNAVAILABLE, reply, MATERIALS4) == expected


# ---- found by blind batch 17 ----------------------------------------------------------------------------------
TECHNIQUES_MODERN = ["lithography", "mechanical printing", "digital printing", "screen printing"]


@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        # an answer to another question ("which is oldest") is no answer to "which differs"
        (LETTER, "The oldest artifact is A, a chipped stone tool.", None, None),
        (LETTER, "The oldest artifact is A, so A is the odd one out.", None, "A"),
        # the prompt's format example echoed alone
        (AnswerSpace("letter_set", n=4, asks="available"), 'e.g., "A, C"', TECHNIQUES, None),
        # a statement with its reason after ", since": the reason's words ("modern") do not turn the statement
        (
            AnswerSpace("letter_set", n=4, asks="available"),
            "None of the listed techniques would have been available when this "
            "terracotta was created, since all of them are modern industrial processes.",
            TECHNIQUES_MODERN,
            S(),
        ),
        # a walkthrough cut off by the token limit at a word no sentence ends with
        (
            UNAVAILABLE,
            "Let's analyze each material:\n\nA. porcelain – True porcelain was developed in China and did not reach India "
            "until much later, so",
            MATERIALS4,
            None,
        ),
        # a second answer on a line of its own
        (GROUP, "A, D, E\n\nOr B, D, E.", None, None),
        (LETTER, "B\n\nAlternatively: C", None, None),
        # a served model's special tokens, the Arabic comma
        (
            LOC,
            "The horse figure with green, amber and cream glaze is a typical sancai tomb figure, which is strongly associated with "
            "the Tang dynasty.\n\nAnswer: A</s>",
            ["Tang", "Song", "Ming", "Yuan", "Qing"],
            "A",
        ),
        (
            AnswerSpace("k_of_n", n=5, k=3, numbered=True),
            "1، 3، 4\n\nهذه القطع الثلاث عبارة عن لوحات ومخطوطات مرسومة على الورق",
            None,
            S("ACD"),
        ),
    ],
)
def test_families_of_batch_17(space, reply, options, expected):
    assert read(space, reply, options) == expected


@pytest.mark.parametrize("reply,expected", [("نعم", True), ("아니요", False), ("네.", True)])
def test_yes_and_no_in_arabic_and_korean(reply, expected):
    assert parse_verdict(reply, "simple") is expected


# ---- found by blind batch 18 (reasoning models) -----------------------------------------------------------------
@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        # the question's options restated in the reasoning ("The options are ...") are no answer
        (
            AnswerSpace("letter_set", n=4, asks="available"),
            "Alright, I need to figure out which manufacturing techniques would have been available. The options are wheel-throwing, "
            "electroplating, lost-wax casting, and photography.\n\nChola bronzes were made using the lost-wax process, so lost-wax casting "
            "is definitely available. Now, wheel-throwing. The potter's wheel has been used in India since the Harappan period. "
            "Let me look at the surface more carefully. There's a greenish patina in the recesses and the details are softened, like "
            "from centuries of ritual bathing and handling. Modern casts tend to have very crisp detailing and a bright",
            ["wheel-throwing", "electroplating", "lost-wax casting", "photography"],
            None,
        ),
        (AnswerSpace("letter_set", n=4, asks="available"), "The correct options are C and D.", TECHNIQUES, S("CD")),
        # an order stated under a condition the reasoning then doubts, in a reply cut off before it settles
        (
            AnswerSpace("ordering", n=5, base=0),
            "Image 3 is a celadon vase; this could be Song. But wait, crackled celadon was imitated in the Qing dynasty.\n\nHmm, so if "
            "image 3 is Song and image 4 is Ming, then the order would be 0, 1, 2, 3, 4. But if image 3 is a Qing imitation, then it "
            "might come after image 4.\n\nBut I'm still not sure whether image 3 is actually Song. The crackle pattern could also be",
            None,
            None,
        ),
        (LETTER, "If the piece is Mughal, the answer would be B.", None, None),
        (LETTER, "If I had to choose, the answer would be B.", None, "B"),
        (LETTER, "If we look at the glaze, the answer is B.", None, "B"),  # a manner of looking, no condition
        (LETTER, "Even if the glaze looks Ming, the answer is B.", None, "B"),  # a concession
        # a boxed answer is the final one; LaTeX display brackets around it
        (
            AnswerSpace("letter_set", n=4, asks="available"),
            "Block printing is trickier ... I'll go with the broader reading.\n\n**Final Answer**\n\n\\[ \\boxed{C, D} \\]",
            TECHNIQUES,
            S("CD"),
        ),
        (
            YEAR,
            "These phones were common from the late 1980s to the early 1990s.\n\nWait, let me reconsider the phone. It is smaller "
            "than the brick phones from 1983-1985, so it's probably a later model, such as a flip phone from around 1989.\n\nSo "
            "the photo was likely taken between 1985 and 1990, most likely around 1988.\n\n\\boxed{1988}",
            None,
            1988,
        ),
    ],
)
def test_families_of_batch_18(space, reply, options, expected):
    assert read(space, reply, options) == expected


@pytest.mark.parametrize(
    "reply,expected",
    [
        ("Partially. The fox is accurate, but the season is ambiguous since there is no snow and some trees still have leaves.", None),
        ("Mostly. The fox is rendered correctly, but there is no snow on the ground. Overall: yes.", True),
        ("yes\n\nWait, let me recheck the background. Flowers in bloom in the snow are not consistent with January.\n\nno", False),
    ],
)
def test_a_partial_verdict_and_a_revised_one(reply, expected):
    assert parse_verdict(reply, "simple") is expected


# ---- the CoT prompt's self-check (bias_mitigation) -------------------------------------------------------------
@pytest.mark.parametrize(
    "reply,expected",
    [
        # the self-check revises the reasoning's first conclusion to the answer given
        (
            '{\n  "time_anchors": {"Image 1": "grayscale street scene, tram", "Image 2": "color photo, Ford Model T"},\n'
            '  "reasoning_path": "Image 1 is grayscale and looks old, so Image 1 appears earlier.",\n'
            '  "bias_mitigation": "If the colors were swapped, would my conclusion change? Yes — I relied on grayscale. Re-evaluating: the '
            'tram in Image 1 is a modern low-floor tram, while the Model T in Image 2 dates to the 1910s. So Image 2 is actually earlier.",\n'
            '  "answer": "2"\n}',
            "2",
        ),
        # a counterfactual in the self-check is no conclusion against the answer
        (
            '{"reasoning_path": "The penny-farthing appeared before the safety bicycle, so Image 2 is earlier.", "bias_mitigation": "If the '
            'colors were swapped, Image 1 would look older, but the objects still show Image 2 is earlier.", "answer": "2"}',
            "2",
        ),
        # the reasoning concludes otherwise and nothing revises it: no answer
        (
            '{"reasoning_path": "Image 1 is grayscale and looks old, so Image 1 appears earlier.", "bias_mitigation": "The objects agree.", '
            '"answer": "2"}',
            None,
        ),
    ],
)
def test_the_cot_self_check(reply, expected):
    assert read(EARLIER, reply) == expected


# ---- found by blind batch 20 (a grader's extractor traps) --------------------------------------------------------
@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        # a list under its introduction, cut off inside its first item: it may go on
        (
            NUMBERED_SET,
            "The terracotta artifact appears to be from the early historic period, probably around the 2nd century BCE. "
            "During this period, the following techniques would have been available:\n\n- Block printing: This technique",
            ["digital printing", "screen printing", "block printing", "weaving"],
            None,
        ),
        # "from 2014 or later" is a bound the estimate respects, not the estimate
        (
            YEAR,
            "2011\n\nActually, the phone in the man's hand is an iPhone 6, which was released in 2014, so the photo must be from "
            "2014 or later. 2015",
            None,
            2015,
        ),
        (YEAR, "Probably 2014 or so.", None, 2014),
        # a long reply whose last line is its answer line, without a full stop, is not cut off
        (
            LOC,
            "The artifact in this image appears to be a blue-and-white porcelain vase, which is characteristic of the Ming dynasty "
            "(1368-1644). The cobalt blue underglaze decoration, the dragon motif, and the shape of the vase are all consistent with "
            "Ming dynasty ceramics.\n\nTherefore, the correct answer is: E. Ming",
            ["Yuan", "Qing", "Tang", "Song", "Ming"],
            "E",
        ),
        # one item a line
        (AnswerSpace("ordering", n=4, numbered=True), "4\n2\n1\n3", None, ("D", "B", "A", "C")),
        (INDICES, "3\n1\n0\n2", None, (3, 1, 0, 2)),
    ],
)
def test_families_of_batch_20(space, reply, options, expected):
    assert read(space, reply, options) == expected


# ---- found by blind batch 21 ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "reply,expected",
    [
        ("C. Qing", None),  # the letter is Ming's, the text Qing's: no single answer
        ("C) Qing", None),
        ("C - Qing dynasty", None),
        ("C. Ming", "C"),
        ("C. Ming dynasty", "C"),
        ("**C. Ming**", "C"),
    ],
)
def test_a_letter_and_the_option_text_after_it_must_agree(reply, expected):
    assert read(LOC, reply, ["Tang", "Song", "Ming", "Qing", "Yuan"]) == expected


# ---- found by blind batch 22 (chain of thought asked of every model) -----------------------------------------------
@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        # the answer is outside the options: an option's name in the explanation is no answer
        (
            LOC,
            "Based on the phoenix-head ewer form, this artifact is most likely from the Liao dynasty (907–1125), a northern dynasty "
            "contemporary with the Northern Song. None of the given options corresponds exactly to the Liao.",
            ["Song", "Tang", "Ming", "Yuan", "Qing"],
            None,
        ),
        (LETTER, "Answer: B. None of the other options match the style.", None, "B"),
        # a cut-off walkthrough: the bullet it stops in is no answer
        (
            UNAVAILABLE,
            "Reasoning:\n• Stone — available (the tools themselves).\n• Copper — the green corrosion indicates copper alloy; "
            "available.\n• Silk — wild-silk fibres are attested at Harappa and Chanhudaro by c. 2450 BCE, so",
            ["stone", "silk", "copper", "synthetic pigments"],
            None,
        ),
        # "from the most recent back to the oldest"
        (ORDER, "Working from the most recent back to the oldest, the sequence is C, A, B, D.", None, ("D", "B", "A", "C")),
        # an answer line of two years
        (
            YEAR,
            "This suggests the fall of the Berlin Wall in November 1989, but the celebration could also be from reunification in "
            "1990.\n\n1989 or 1990",
            None,
            None,
        ),
        # options eliminated are no answer; the items described in turn are no order
        (
            AnswerSpace("letter", n=4),
            "*   **Eliminate options:** Prehistoric, Bronze Age and Early Medieval periods are all far too early "
            "for a printed stamp.\n*   **Conclusion:** Only Modern India (1857 AD - Present) fits.\n\n**C**",
            [
                "Prehistoric Period (Before 3300 BCE)",
                "Bronze Age (3300 - 1800 BCE)",
                "Modern India (1857 AD - Present)",
                "Early Medieval Period (650 - 1200 AD)",
            ],
            "C",
        ),
        (INDICES, "Let's identify each artifact:\n- 0: Qing porcelain\n- 1: Shang bronze\n- 2: Tang sancai\n- 3: Han jade", None, None),
        (INDICES, "From oldest to newest:\n- 1\n- 3\n- 2\n- 0", None, (1, 3, 2, 0)),
    ],
)
def test_families_of_batch_22(space, reply, options, expected):
    assert read(space, reply, options) == expected


def test_a_yes_then_a_sentence_that_opens_with_no_is_no_verdict():
    reply = (
        "Yes, the image is correct for the prompt: it shows a photorealistic red fox. No, the temporal knowledge is not "
        "applied, because there is no snow and the trees are green."
    )
    assert parse_verdict(reply, "simple") is None


@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        (
            AnswerSpace("letter_set", n=4, asks="available"),
            "Printing technologies were not invented yet. So the techniques that would "
            "have been available are lost-wax casting and the coil technique.",
            ["lithography", "mechanical printing", "lost-wax casting", "coil technique"],
            S("CD"),
        ),
        (
            EARLIER,
            '{"reasoning_path": "Initially, Image 1 appears older because it is black-and-white, so my first conclusion was that '
            'Image 1 is earlier.", "bias_mitigation": "If the colours were swapped, would my conclusion hold? No — my initial '
            'reasoning relied on the grayscale look. Based on semantic features, Image 2 depicts the earlier scene.", "answer": "2"}',
            None,
            "2",
        ),
    ],
)
def test_more_families_of_batch_22(space, reply, options, expected):
    assert read(space, reply, options) == expected


@pytest.mark.parametrize(
    "reply,expected",
    [("图中是一只赤狐，站在积雪覆盖的林地上，符合欧洲一月冬季的特征。\n\n是", True), ("图中树叶是绿色的，不符合一月。\n\n不是", False)],
)
def test_a_chinese_verdict_on_the_last_line(reply, expected):
    assert parse_verdict(reply, "simple") is expected


# ---- found by blind batch 24 (sampling, 96 new tokens) -----------------------------------------------------------
@pytest.mark.parametrize(
    "reply,expected",
    [
        # the thinking concludes after "suggesting": Image 2, against the answer field
        (
            '{"thinking": "Image 1 shows a modern car with LED headlights, while Image 2 shows a vintage car with round headlights and '
            'a chrome grille, suggesting Image 2 is older.", "answer": "1"}',
            None,
        ),
        ('{"thinking": "Image 1 shows a vintage car, while Image 2 shows a modern car, suggesting Image 1 is older.", "answer": "1"}', "1"),
        # ... and when the clause after the cue compares nothing, the sentence's own comparison counts
        (
            '{"thinking": "Image 2 shows older technology, such as a film camera and vintage clothing, indicating it is from an earlier '
            'time than Image 1, which features a digital camera.", "answer": "1"}',
            None,
        ),
    ],
)
def test_the_conclusion_of_a_json_thinking_field(reply, expected):
    assert read(EARLIER, reply) == expected


@pytest.mark.parametrize(
    "space,reply,expected",
    [
        # a list revised after "wait": the last line is the answer
        (
            AnswerSpace("ordering", n=4, numbered=True),
            "2, 4, 1, 3\n\nWait, artifact 4 is a coin with a Greek-style portrait, which "
            "would be from the Hellenistic period and older than the vase. Let me correct the order:\n\n4, 2, 1, 3",
            ("D", "B", "A", "C"),
        ),
        (LETTER, "B\n\nThe glaze is later.\n\nC", None),  # two answer lines, nothing revised
        # an answer after a concession, ranked first
        (
            LETTER,
            "A. The rectangular slab appears to be a much older carved stone piece, while the coins and the figure look later. "
            "Although C could also be from an earlier period, A is the most likely answer.",
            "A",
        ),
        (LETTER, "C is the most likely answer.", "C"),
    ],
)
def test_a_revised_last_line_and_an_answer_after_a_concession(space, reply, expected):
    assert read(space, reply) == expected


# ---- found by blind batches 25 and 26 -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        # "X - No, ..." in a per-option walkthrough is the option's verdict, not a self-correction
        (
            AnswerSpace("letter_set", n=4, asks="available"),
            " A. lithography - No, lithography was invented in 1796 and would not have been available.\nB. mechanical printing - No, "
            "mechanical printing developed much later.\nC. lost-wax casting - Yes, lost-wax casting is an ancient technique that has been "
            "used for thousands of years.\nD. coil technique - Yes, the coil technique is one of the oldest methods of making pottery.",
            ["lithography", "mechanical printing", "lost-wax casting", "coil technique"],
            S("CD"),
        ),
        (LETTER, "Answer: C - no, D.", None, "D"),
        # the release prompt's format example and its instructions echoed, numbered as in the prompt
        (
            AnswerSpace("ordering", n=4, numbered=True),
            ' "1, 3, 2, 4" (where these numbers represent the order from oldest to newest).',
            None,
            None,
        ),
        (
            NUMBERED_LETTER,
            "1. Identify which one it is by number (1, 2, 3, or 4)\n2. Explain why you think it belongs to a different period",
            None,
            None,
        ),
        # a direction stated on the line after the list
        (AnswerSpace("ordering", n=5, base=0), "4,2,0,1,3\n\n(Order from most recent to oldest.)", None, (3, 1, 0, 2, 4)),
        # "Corrected answer:" is final
        (
            UNAVAILABLE,
            " A, C\n\nPorcelain was not developed until the Tang dynasty. Paper was invented in China around 105 AD, so it "
            "would have been available. So only porcelain would not have been available.\n\nCorrected answer: A",
            MATERIALS4,
            S("A"),
        ),
        # a JSON cut off before its answer field, inside a code fence, gives none
        (
            EARLIER,
            '◁think▷So image 1 is earlier.◁/think▷```json\n{\n  "time_anchors": {\n    "Image 1": "manual telephone switchboard"'
            '\n  },\n  "reasoning_path": "The manual switchboard in Image 1',
            None,
            None,
        ),
    ],
)
def test_families_of_batches_25_and_26(space, reply, options, expected):
    assert read(space, reply, options) == expected


# ---- one rule for self-corrections, in every reader ------------------------------------------------------------------
# An item's verdict ("1. Cars - No, ...", "- Clothing - no, ...") is no self-correction for the year and judge readers
# either (before, only the letter readers knew it: the year reader took the evidence's 1990 for the estimate).
@pytest.mark.parametrize(
    "reply,expected",
    [
        ("Answer: 1985\n\n1. Cars - No, none of them look newer than 1990.\n2. Clothing - typical of the mid-80s.", 1985),
        ("My estimate is 1985.\n\n- Clothing - no, nothing distinctly modern; the hairstyles look like 1979.\n- Cars: boxy sedans.", 1985),
        ("1985... no, wait, the phone in his hand is a flip phone, so 1998.", 1998),  # a self-correction still is one
    ],
)
def test_an_items_verdict_is_no_self_correction_for_a_year(reply, expected):
    assert read(AnswerSpace("year", lo=1900, hi=2025), reply) == expected


def test_an_items_verdict_is_no_self_correction_for_a_judge():
    reply = (
        "1. Is the fox correct? - Yes.\n2. Is it winter - No, the trees are green, so the temporal knowledge is not applied."
        "\n\nYes, the image is correct."
    )
    assert parse_verdict(reply, "standard") is None  # a yes and a no for the prompt's two questions: no single verdict


# ---- found by blind batches 27 and 28 -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        # a base model echoes the odd-one-out prompt's option lines, placeholders and letters together, then its instruction
        (
            LETTER,
            "A. <image>\n\nB. <image>\n\nC. <image>\n\nD. <image>\n\nAnswer with the option's letter (A, B, C, or D) from the "
            "given choices directly.\n\nAnswer with the option's letter (A, B, C, or D) from the given choices directly.",
            None,
            None,
        ),
        (LETTER, "A. <image>\nB. <image>\nC. <image>\nD. <image>\n\nC", None, "C"),
        # the release prompt's format example echoed from inside its quotes
        (
            AnswerSpace("ordering", n=4, numbered=True),
            '1, 3, 2, 4" (where these numbers represent the order from oldest to newest).'
            "\n\nBelow are 4 historical artifacts from different time periods.",
            None,
            None,
        ),
        # a reason first: the options it names are evidence, the answer is the subject after its last comma
        (
            AnswerSpace("letter", n=4, numbered=True),
            "**Artifact 3** belongs to a different period.\n\n1. Artifact 1: a bronze ding.\n"
            "2. Artifact 2: a bronze gu.\n3. Artifact 3: a porcelain vase.\n4. Artifact 4: a bronze jue.\n\nSince Artifacts 1, 2 and 4 are "
            "all Shang bronzes, **Artifact 3** is the one that belongs to a different time period.",
            None,
            "C",
        ),
        (LETTER, "Because A, B and D are all stone tools, C is the odd one out.", None, "C"),
        # a numbered description of each image in turn is no ranking; the order comes after it
        (
            INDICES,
            "### Analysis of Each Image:\n\n1. **Image 0**: a Ming blue-and-white jar.\n2. **Image 1**: a Tang sancai horse.\n"
            "3. **Image 2**: a Qing famille rose vase.\n4. **Image 3**: a Song celadon bowl.\n\n### Chronological Order:\n"
            "Tang → Song → Ming → Qing\n\n1, 3, 0, 2",
            None,
            (1, 3, 0, 2),
        ),
        (
            INDICES,
            "From oldest to newest:\n1. Image 0\n2. Image 1\n3. Image 2\n4. Image 3",
            None,
            (0, 1, 2, 3),
        ),  # an order that is the identity
        # a base model answers, then writes a new question from "Question: Which ..." with its own answer: the first is the reply's
        (
            AnswerSpace("letter_set", n=4, asks="available"),
            "B, C\n\nQuestion: Which manufacturing techniques would have been available "
            "when this Sculpture was created?\nPlease select all options that apply from the following choices:\nA. lithography\nB. "
            "carving\nC. casting\nD. screen printing\nList all correct letters separated by commas.\nA, D",
            None,
            S("BC"),
        ),
        # the prompt restated line by line before the answer is read on
        (
            LETTER,
            "Look at this historical artifact and answer the following question:\n\nQuestion: Which historical period does this "
            "Coin belong to?\n\nA. Iron Age\nB. Bronze Age\nC. Modern India\nD. Early Medieval Period\n\nAnswer: D",
            None,
            "D",
        ),
    ],
)
def test_families_of_batches_27_and_28(space, reply, options, expected):
    assert read(space, reply, options) == expected


GROUPED = [
    "Dancing Lady (Modern Painting)",
    "Fragment of a rim (Pottery)",
    "Decorative Art (Decorative Arts)",
    "Pot (Pottery)",
    "TOY SOLDIER (Clay)",
]


@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        # items described and named by their letters in brackets: the bracketed letters are the set
        (
            GROUP,
            "The three artifacts that were likely created during the same time period are the rim fragment (B), the pot (D), "
            "and the small clay toy soldier (E). All three are simple hand-formed terracotta.",
            GROUPED,
            S("BDE"),
        ),
        (AnswerSpace("letter_set", n=4), "可用的技术有：雕版印花（C）和织造（D）。丝网印刷是近现代才出现的。", None, S("CD")),
        (GROUP, "The answer is the rim fragment (B), the pot (D), and maybe the dancing lady (A).", GROUPED, None),  # still a hedge
    ],
)
def test_items_named_with_their_letters_in_brackets(space, reply, options, expected):
    assert read(space, reply, options) == expected


# ---- found by blind batch 30 -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "reply,expected",
    [
        ("元代或明初", None),  # Yuan or early Ming: two periods (read as Yuan before)
        ("明末清初", None),
        ("清末民初", None),
        ("宋末元初的青白瓷", None),
        ("明初", "Ming"),
        ("答案：清代（清末）", "Qing"),
        ("民国初年", "Republic of China"),
        ("周末去博物馆看到的这件瓷器是宋代的。", "Song"),  # 周末 is a weekend, not the late Zhou
        # found by blind batch 38: after a word that goes before a period, both parts are read (it read Qing)
        ("这件文物可能属于明末清初时期。", None),
        ("约为清初", "Qing"),
        ("说明初步判断为宋代", "Song"),
        ("夏末的一件宋代瓷器", "Song"),
        # found by blind batch 41: a period in bold is read with the line it stands in (it read Zhou)
        ("根据器物的造型和纹饰，这件文物可能属于**商代晚期**或**西周早期**。", None),
        ("这件文物属于**清代**。", "Qing"),
    ],
)
def test_a_part_of_a_period_names_that_period(reply, expected):
    assert read(PERIOD, reply) == expected


# ---- found by blind batch 29 -----------------------------------------------------------------------------------------
COINS = ["Architectural Stone Slab (Sculpture)", "Coin (Coin)", "Head of Divinity (Sculpture)", "Coin (Coin)"]


@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        # a first line "B or D" is a hedge, and a reply without a cue that weighs "B or D" names no one option
        (
            LETTER,
            "**B or D**\n\nBoth coins (B and D) look later than the two stone sculptures, so either could be the artifact "
            "from a different period. The sculptures A and C share the same carving style.",
            COINS,
            None,
        ),
        (LETTER, "C or D\n\nI can't tell the two apart from these photos.", None, None),
        (LETTER, "It is B. The fine jali work is typical of Mughal architecture.", None, "B"),  # ("work" is no "w or k")
        # a numbered list after a cue that states its direction newest first, on the cue's line
        (
            ORDER,
            "Here is the order from **most recent to oldest**:\n\n1. **C** – Modern painting of a dancing woman\n2. **A** – Coin "
            "with a regnal inscription\n3. **B** – Painted pottery vase\n4. **D** – Silver tetradrachm of Alexander the Great",
            None,
            ("D", "B", "A", "C"),
        ),
        (
            ORDER,
            "Here is the order from oldest to newest:\n\n1. D – tetradrachm\n2. B – vase\n3. A – coin\n4. C – painting",
            None,
            ("D", "B", "A", "C"),
        ),
    ],
)
def test_families_of_batch_29(space, reply, options, expected):
    assert read(space, reply, options) == expected


def test_groups_under_their_availability_labels_answer_by_the_questions_polarity():
    reply = (
        "Available: A, C\nNot available: B, D\n\nAluminium was not produced in usable quantities until the late 19th century, "
        "and vinyl is a 20th-century synthetic material, so neither existed when this Sculpture was made."
    )
    options = ["glass", "aluminium", "terracotta", "vinyl"]
    assert read(AnswerSpace("letter_set", n=4, asks="unavailable"), reply, options) == S("BD")
    assert read(AnswerSpace("letter_set", n=4, asks="available"), reply, options) == S("AC")


# ---- found by blind batch 32 -----------------------------------------------------------------------------------------
TECHNIQUES4 = ["lithography", "mechanical printing", "lost-wax casting", "coil technique"]
FOLIOS = [
    "Animals (Miniature Painting)",
    "Buddha (Sculpture)",
    "JAIN KALPASUTRA (Manuscript)",
    "Mangal Stotram (Manuscript)",
    "DOOPATTA (Textile)",
]


@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        # a conclusion after "so" that names the other group (asked: which were available) is not the answer
        (
            AnswerSpace("letter_set", n=4, asks="available"),
            "What a lovely piece! Terracotta figures like this were made long before modern printing, so lithography and mechanical "
            "printing would not have been available. Artisans could, however, use **lost-wax casting** and the **coil technique**.",
            TECHNIQUES4,
            None,
        ),
        (
            AnswerSpace("letter_set", n=4, asks="unavailable"),
            "Printing came much later, so lithography and mechanical printing would not have been available.",
            TECHNIQUES4,
            S("AB"),
        ),
        # a grouping answered on the first line and contradicted by the explanation's own group
        (
            AnswerSpace("k_of_n", n=5, k=3, numbered=True),
            "1, 3, 4\n\nArtifacts 2, 3 and 4 all show similar features: the sandstone Buddha and the two manuscript folios share the "
            "flat treatment and bold outlines of one workshop. Artifact 1 is a later painting and artifact 5 a modern textile.",
            FOLIOS,
            None,
        ),
        (
            AnswerSpace("k_of_n", n=5, k=3, numbered=True),
            "2, 3, 4\n\nArtifacts 2, 3 and 4 all show similar features: the sandstone Buddha and the two manuscript folios share the "
            "flat treatment and bold outlines of one workshop.",
            FOLIOS,
            S("BCD"),
        ),
        (GROUP, "B, C and E share the same red slip and incised decoration, so they come from one period.", None, S("BCE")),
    ],
)
def test_families_of_batch_32(space, reply, options, expected):
    assert read(space, reply, options) == expected


# ---- answer lines and verdicts in more languages ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "reply,expected",
    [
        ("Ответ: B. Глазурь и форма типичны для этого периода.", "B"),
        ("Đáp án: C. Lớp men và hình dáng đặc trưng cho thời kỳ này.", "C"),
        ("정답: D. 유약과 형태가 이 시기의 특징입니다.", "D"),
        ("उत्तर: A. यह शैली उस काल की विशेषता है।", "A"),
        ("คำตอบ: B เพราะลวดลายและรูปทรงเป็นแบบของยุคนั้นอย่างชัดเจน", "B"),
        ("الإجابة: C. الزخرفة نموذجية لتلك الفترة.", "C"),
        ("Jawaban: A. Glasir dan bentuknya khas periode tersebut.", "A"),
        ("Cevap: D. Sır ve biçim bu döneme özgüdür.", "D"),
    ],
)
def test_an_answer_line_in_other_languages(reply, expected):
    assert read(LETTER, reply) == expected


@pytest.mark.parametrize(
    "reply,expected",
    [
        ("Да. Изображение соответствует запросу.", True),
        ("Không. Hình ảnh không phù hợp với mùa đông.", False),
        ("Evet.", True),
        ("Tidak, gambar ini tidak sesuai.", False),
        ("Não.", False),
        ("ใช่", True),
    ],
)
def test_a_verdict_in_other_languages(reply, expected):
    assert parse_verdict(reply, "standard") is expected


# ---- found by blind batch 34 -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        # the answer on the line after a self-correction's own sentence revises the first line
        (
            UNAVAILABLE,
            "A, C\n\nStone and copper were worked from very early times. Actually, the question asks which materials "
            "would NOT have been available, so let me correct that.\n\nB, D\n\nSilk and synthetic pigments came later.",
            ["stone", "silk", "copper", "synthetic pigments"],
            S("BD"),
        ),
        (LETTER, "B\n\nWait, I misread the second image. Let me correct that.\n\nD\n\nThe glaze is Ming, not Song.", None, "D"),
    ],
)
def test_families_of_batch_34(space, reply, options, expected):
    assert read(space, reply, options) == expected


# ---- found by blind batch 33 (models answering in other languages) --------------------------------------------------
NUMBERED_SET = AnswerSpace("letter_set", n=4, asks="available", numbered=True)


@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        # "and" and "or" between options in other languages
        (NUMBERED_SET, "1 et 3", None, S("AC")),
        (NUMBERED_SET, "3と4です。", None, S("CD")),
        (GROUP, "Artefak B, D, dan E", None, S("BDE")),
        (AnswerSpace("k_of_n", n=5, k=3, numbered=True), "٢، ٤، ٥", None, S("BDE")),
        (UNAVAILABLE, "A（アルミニウム）とD（アクリル絵具）", ["aluminium", "terracotta", "gold", "acrylic paint"], S("AD")),
        (LETTER, "A ou C", None, None),
        (LETTER, "B または D", None, None),
        (LETTER, "Thank you a lot! The answer is B.", None, "B"),
        # a self-correction in French after a first answer
        (
            UNAVAILABLE,
            "C, D. En fait, le papier n'était pas encore utilisé en Inde à cette époque non plus, donc : A, C, D.",
            ["paper", "silver", "synthetic fiber", "plastic"],
            S("ACD"),
        ),
        (LETTER, "La réponse est B : l'âge du fer (1800 - 200 av. J.-C.).", None, "B"),
        # a direction stated in French or Korean
        (ORDER, "Du plus récent au plus ancien : A, D, C, B.", None, ("B", "C", "D", "A")),
        (AnswerSpace("ordering", n=5, base=0), "최신부터 오래된 순서: 4,0,3,2,1", None, (1, 2, 3, 0, 4)),
        # a walkthrough cut off at "..., so it": its first item is no answer
        (
            NUMBERED_SET,
            "To determine which techniques would have been available, we consider the context.\n\n1. **Lithography**: "
            "This printing technique was invented in 1796 by Alois Senefelder, so it",
            None,
            None,
        ),
    ],
)
def test_families_of_batch_33(space, reply, options, expected):
    assert read(space, reply, options) == expected


@pytest.mark.parametrize(
    "space,reply,expected",
    [
        # Korean and Japanese names of periods, traditional forms of the characters
        (PERIOD, "당나라 시대", "Tang"),
        (PERIOD, "東周（戦国時代）", "Zhou"),
        (PERIOD, "唐時代の作品です", "Tang"),
        (PERIOD, "명나라 후기", "Ming"),
        # a Korean reply that stops at a particle is cut off: the period it was naming is no answer
        (
            AnswerSpace("letter", n=5),
            "이 유물은 당삼채(唐三彩) 도자기로 보입니다. 녹색, 갈색, 크림색의 유약이 서로 흘러내리며 섞이는 특징은 당나라 시대의",
            None,
        ),
        # a JSON answer under a key in another language; a Chinese comparison whose comma ends the clause of the other image
        (EARLIER, '{"thinking": "이미지 2에는 공중전화 부스와 삐삐가 보입니다. 이미지 2가 더 이릅니다.", "답변": "2"}', "2"),
        (EARLIER, '{"thinking": "图1中的相机为胶片单反，图2中为手机自拍杆，胶片相机早于手机自拍。", "answer": "图1"}', "1"),
    ],
)
def test_more_families_of_batch_33(space, reply, expected):
    options = ["Yuan", "Qing", "Tang", "Song", "Ming"] if space.kind == "letter" else None
    assert read(space, reply, options) == expected


# ---- found by blind batches 35 and 36 -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        # a period outside the options said so; "(a cockscomb pot)" is no option (a)
        (
            LOC,
            "The artifact appears to be a ceramic flask in the shape of a leather pouch (a cockscomb pot), which is characteristic "
            "of the **Liao Dynasty** (907–1125). The Liao Dynasty is not among the options provided.",
            ["Yuan", "Qing", "Tang", "Song", "Ming"],
            None,
        ),
        # a JSON answer against its own thinking, which names the image by "it"
        (EARLIER, '{"thinking": "The first image is black and white, so it is older.", "answer": "2"}', None, None),
        (EARLIER, '{"thinking": "The first image is black and white, so it is older.", "answer": "1"}', None, "1"),
        # a self-check that says the first conclusion would change keeps the answer it revised to
        (
            EARLIER,
            '{"reasoning_path": "Image 2 is in black and white, so it is older.", "bias_mitigation": "If the colors were '
            'swapped, the conclusion would change. By the bicycles, Image 1 is much older than Image 2.", "answer": "1"}',
            None,
            "1",
        ),
        # "Image 1: <description>" is a label over a description, not an answer line
        (
            EARLIER,
            "Step 1: Identify visual entities.\nImage 1: A woman using a laptop computer in a coffee shop.\nImage 2: A man "
            "typing on a typewriter.\n\nStep 3: Detail thinking process.\nTypewriters came before laptops.\n\nTherefore, "
            "Image 2 appeared earlier in history.",
            None,
            "2",
        ),
        # a last line that is only a letter, below a listing of the options, is the answer
        (
            LETTER,
            "Looking at the four artifacts:\n\nA. A stone slab with relief carving\nB. A worn copper coin\nC. A terracotta "
            "figure\nD. A coin with an Arabic legend\n\nA, B and C look early historic, while D points to a later issue.\n\nD",
            None,
            "D",
        ),
    ],
)
def test_families_of_batches_35_and_36(space, reply, options, expected):
    assert read(space, reply, options) == expected


def test_a_negated_comparison_says_nothing_of_which_is_later():  # found by blind batch 37 (an abstention)
    reply = (
        '{"reasoning_path": "The steam locomotive in Image 2 places it no later than the mid-20th century, whereas '
        'rooftop solar installations in Image 1 indicate the 21st century.", "answer": 2}'
    )
    assert read(EARLIER, reply) == "2"


# ---- found by blind batch 40 (the items models disagree on) --------------------------------------------------------
TECH_MODERN = ["photolithography", "digital printing", "injection molding", "CNC milling"]


@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        # the options named in an apposition ("All four options — ... — are industrial") are no answer
        (
            AnswerSpace("letter_set", n=4, asks="available"),
            "None of these techniques would have been available when this terracotta was created. All four options — photolithography, "
            "digital printing, injection molding and CNC milling — are industrial or digital processes of the 19th and 20th centuries.",
            TECH_MODERN,
            S(""),
        ),
        # "Competing option: ..." is no answer cue
        (
            LETTER,
            "*   **Iconography:** hallmarks of the Pala–Sena school.\n*   **Competing option:** The heavy ornamentation could "
            "suggest the later Vijayanagara idiom (D), but the polished black stone is far more characteristic of the 9th–12th "
            "centuries.\n\n**Answer: C**",
            None,
            "C",
        ),
        # a period outside the options mentioned on the way, then an answer stated as final
        (
            LOC,
            "The three-colour glaze suggests Tang sancai, though the form could point to a Liao imitation, and Liao is not among the "
            "options.\n\nWeighing the evidence, the glaze is most consistent with Tang production, so I lean towards **C**.",
            ["Yuan", "Qing", "Tang", "Song", "Ming"],
            "C",
        ),
        (
            LOC,
            "This is a Liao cockscomb flask. The Liao Dynasty is not among the options provided.",
            ["Yuan", "Qing", "Tang", "Song", "Ming"],
            None,
        ),
        # a grouping said "were likely created during the same time period"
        (
            AnswerSpace("k_of_n", n=5, k=3, numbered=True),
            "Artifacts 1, 2 and 4 were likely created during the same time period.\n\n"
            "**Reasoning:**\n- **Artifact 1 (bowl):** prehistoric bands.\n- **Artifact 2:** a game piece.\n- **Artifact 4:** an Indus "
            "weight.\n\nArtifacts 3 and 5 are minted coins from a later period.",
            None,
            S("ABD"),
        ),
        # a self-check that revises in an earlier sentence than its last
        (
            EARLIER,
            '{"reasoning_path": "Image 1 is black and white, so it appears older. Initial conclusion: Image 1 is earlier.", '
            '"bias_mitigation": "On reflection, my initial reasoning relied on the black-and-white format. Without the colour cue, '
            'Image 2 is earlier. My conclusion changes.", "answer": "2"}',
            None,
            "2",
        ),
        # a paragraph that weighs two periods is no answer line; its last line is
        (
            PERIOD,
            "这件文物从造型和釉色来看，有元代青花的浓重钴料和满密构图，但也有明初洪武时期的特征，比如缠枝花卉的画法较为疏朗。"
            "综合判断，更可能是元代。\n\n元代",
            None,
            "Yuan",
        ),
    ],
)
def test_families_of_batch_40(space, reply, options, expected):
    assert read(space, reply, options) == expected


@pytest.mark.parametrize(
    "reply,expected",
    [
        ("Probably **B** or **D**.", None),
        ("Either **B** or **D**.", None),  # a bold letter in a line that hedges (read D before)
        ("The odd one out is **B**.", "B"),
        ("A and C are stone tools. **B**", "B"),
    ],
)
def test_a_bold_letter_is_read_with_its_line(reply, expected):
    assert read(LETTER, reply) == expected


# ---- found by blind batch 42 (a "think step by step" wrapper) ---------------------------------------------------------
@pytest.mark.parametrize(
    "space,reply,expected",
    [
        # a last line that is only a year, below the range it narrows, is the answer; against another estimate it is none
        (
            YEAR,
            "Step 2: The cars have rounded bodies and whitewall tyres, typical of the 1950s.\n\nSo the photo was most likely taken "
            "between 1955 and 1960.\n\n1958",
            1958,
        ),
        (YEAR, "It could plausibly be anywhere from 1967 to 1970, but my best estimate is:\n\n**1968**", 1968),
        (YEAR, "The photo was taken in 2018.\n\n2017", None),
        # "**Check the options:**" opens a walkthrough, not an answer
        (
            AnswerSpace("letter", n=4, numbered=True),
            "1.  **Identify the object:** a postage stamp.\n2.  **Check the options:**\n"
            "    *   Prehistoric Period – impossible.\n    *   Bronze Age – impossible.\n    *   Modern India (1857 AD - Present) – the only "
            "period with postage stamps.\n    *   Early Medieval Period – impossible.\n\n**3**",
            "C",
        ),
    ],
)
def test_families_of_batch_42(space, reply, expected):
    assert read(space, reply) == expected


# ---- found by blind batch 44 ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "space,reply,options,expected",
    [
        # two orders listed as possibilities under "Possible sequences:" give none
        (
            ORDER,
            "The stone implement (A) is clearly the oldest. The ram (B) and the coin (C) could be either way around.\n\n"
            "**Possible sequences:**\n\n*   A, B, C, D\n*   A, C, B, D\n\nThe Image of Narasimha (D) is the most recent either way.",
            None,
            None,
        ),
        (ORDER, "From oldest to newest:\n\nA, C, B, D\n\nThe coin is later than the ram.", None, ("A", "C", "B", "D")),
        # a year revised after "Actually" that names no single year of its own gives none, not the year it revised
        (
            YEAR,
            "2011\n\nActually, the smartphone the man is holding has the flat-edged design of the iPhone 5, which came out in "
            "late 2012, so **2013** is more likely.",
            None,
            None,
        ),
        (YEAR, "2011\n\nActually, looking at the phone again, I'd say 2013.", None, 2013),
    ],
)
def test_families_of_batch_44(space, reply, options, expected):
    assert read(space, reply, options) == expected


def test_a_judge_that_says_it_cannot_tell_gives_no_verdict():  # found by blind batch 46 (read as no)
    reply = (
        "The fox itself looks photorealistic, but there's no snow, just brown leaves and bare branches. January in much of "
        "western Europe can look like that, though, so it's hard to say definitively whether the temporal knowledge is applied."
    )
    assert parse_verdict(reply, "standard") is None
    assert parse_verdict("There's no snow, so the temporal knowledge is not applied. No.", "standard") is False


@pytest.mark.parametrize(
    "reply, expected",
    [
        ("答案是A。重新考虑后，选B。", "B"),
        ("我先选A，但重新考虑一下，应该是C。", "C"),
    ],
)
def test_reconsidering_in_chinese_is_a_self_correction(reply, expected):
    # found by tests/foundation/test_parse_gates.py: 重新考虑 was in the correction pattern, but its first-character
    # guard lacked 重, so it never matched and the two answers read as none
    assert AnswerSpace("letter", n=4).parse(reply) == expected


@pytest.mark.parametrize(
    "reply",
    [
        "最早的是B和最晚的是C，D早于A",  # 和 and 而 join two statements as "and" does: one character, not three
        "最早的是B而最晚的是C，D早于A",
        "最晚的是C和最早的是B，D早于A",
        "最早的是B，最晚的是C，D早于A",  # (the same sentence with a comma)
        "The oldest is B and the newest is C, D is older than A.",
    ],
)
def test_oldest_and_newest_joined_in_one_clause(reply):
    assert ORDER.parse(reply) == ("B", "D", "A", "C")


@pytest.mark.parametrize(
    "reply, expected",
    [
        # a JSON answer field that states the comparison the other way round answers the question asked ("which is earlier")
        ('{"thinking": "A tram and gas lamps; then cars with fins.", "answer": "Image 2 is more recent"}', "1"),
        ('{"thinking": "...", "answer": "Image 1 is later"}', "2"),
        ('{"thinking": "...", "answer": "the second image is newer"}', "1"),
        ('{"thinking": "...", "answer": "Image 2 is older"}', "2"),
        ('{"thinking": "...", "answer": "2 (Image 2 is earlier)"}', "2"),
        # a second answer after the JSON one, without a revision: two answers; with one, the revision
        ('{"thinking": "Image 1 older.", "answer": "1"}\n\nFinal answer: 2', None),
        ('{"thinking": "Image 1 older.", "answer": "1"}\n\nSo Image 1 is the earlier one.', "1"),
        (
            '{"thinking": "...", "answer": "2"}\n\nCorrection: I mixed the images up - the gas lamps are in Image 1. Image 1 is earlier.',
            "1",
        ),
    ],
)
def test_json_answer_words_and_later_answers(reply, expected):  # found by blind batches 49 and 50
    assert EARLIER.parse(reply) == expected


@pytest.mark.parametrize(
    "reply, expected",
    [
        ("Toutes sauf B et D : la fonte et la lithographie n'étaient pas connues.", S("AC")),  # "all except" in other languages
        ("Alle außer B - der mechanische Druck kam viel später.", S("ACD")),
        ("Todas excepto C.", S("ABD")),
        ("All except A and C.", S("BD")),
    ],
)
def test_all_except_in_other_languages(reply, expected):
    assert AnswerSpace("letter_set", n=4, asks="available").parse(reply) == expected


@pytest.mark.parametrize(
    "reply",
    [
        "D is the oldest and A the newest, but I can't tell B from C: they look contemporary.",
        "B is the oldest and C the newest; A and D look contemporaneous, so I cannot order them.",
    ],
)
def test_a_partial_order_is_not_completed(reply):
    assert ORDER.parse(reply) is None


def test_two_odd_ones_out_are_two_answers():
    assert LETTER.parse("Artifact 1 belongs to a different time period. Artifact 3 belongs to a different time period.") is None
    assert LETTER.parse("Artifact 3 belongs to a different time period. It is the only glazed piece.") == "C"


def test_two_ratings_that_differ_are_no_verdict():
    assert parse_verdict("RATING: Not accept\nRATING: Accept", "judging") is None
    assert parse_verdict("RATING: Accept\nThe snow is right.\nRATING: Accept", "judging") is True
    assert parse_verdict("RATING: Poor\nWait, on reflection the lighting is right.\nRATING: Good", "judging") is True


@pytest.mark.parametrize(
    "reply, expected",
    [
        ('{"year": 1985, "confidence": 60}\n\nOn reflection, the car is a 1988 model, so the year must be 1988.', 1988),
        ('{"year": 1985, "confidence": 60}\n\nWait - the poster behind is dated 1991. The year is 1991.', 1991),
        ('{"year": 1985, "confidence": 60}\n\nThe car suggests the mid-1980s.', 1985),
    ],
)
def test_a_year_revised_after_its_json(reply, expected):  # found by blind batch 49
    assert YEAR.parse(reply) == expected


@pytest.mark.parametrize(
    "space, reply, expected",
    [
        # a group given through its complement, said (not) available: the polarity applies to the others
        (AnswerSpace("letter_set", n=4, asks="unavailable"), "Everything except paper and stone was unavailable.", S("CD")),
        # numbered items joined by "and" in a sentence of availability: both items
        (
            AnswerSpace("letter_set", n=4, asks="unavailable", numbered=True),
            "3. synthetic pigments and 4. gold were not available; the rest were.",
            S("CD"),
        ),
        (
            AnswerSpace("letter_set", n=4, asks="available", numbered=True),
            "1. paper and 2. stone were available; the other two were not.",
            S("AB"),
        ),
    ],
)
def test_availability_of_complements_and_numbered_items(space, reply, expected):  # found by blind batch 50
    assert space.parse(reply, MATERIALS) == expected


@pytest.mark.parametrize(
    "reply, expected",
    [
        # options named in Chinese words our names do not hold: reading the ones we know would give a part of the set
        ("泥条盘筑和手捏成型在当时都已经可以使用。", None),
        ("拉坯和石雕在当时都已出现，失蜡法也有。", None),
        ("A、D（失蜡法和手捏成型在当时已经存在）", S("AD")),  # (letters given: read by them)
    ],
)
def test_chinese_items_that_name_no_option(reply, expected):  # found by blind batches 49 and 50
    options = ["lost-wax casting", "glazing", "hand-molding", "stone carving"]
    assert AnswerSpace("letter_set", n=4, asks="available").parse(reply, options) == expected
