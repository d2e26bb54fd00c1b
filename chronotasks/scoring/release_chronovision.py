"""ChronoVision's release scoring, rule for rule: how the release scripts read a reply.

Re-implemented from reading the release (github.com/LuoRenqiang/ChronoVision, ``code/``):

- Shortcut, plain prompt: ``code/shortcut/shortcut_test.py``, ``query_vllm`` (read at 682ee4a),
  scored as ``prediction == ground_truth`` in ``process_category`` and summed by
  ``code/shortcut/get_acc_shortcut.py``, ``main`` (844e106): the reply must be JSON; the
  ``answer`` field counts as "1" if it contains a "1" anywhere, else as "2" if it contains a "2"
  ("1 or 2" reads as 1); a reply that is not JSON counts only when it holds ``"answer": "<digit>"``.
- Shortcut, CoT prompt: ``code/shortcut_with_CoT/shortcut_with_CoT.py``, ``query_vllm`` (d2ef86d):
  the reply must be JSON (no fallback); the first "1" or "2" in the ``answer`` field counts.
- News-Multimodal: ``code/news/multimodal_subtask_test.py``, ``run_mmt_test_aggregated`` (fc93391):
  a reply is right when the gold image number appears anywhere in it (``str(gold) in reply``).
- News-Year: ``code/news/get_acc_news.py``, ``extract_year_from_model_answer`` and
  ``analyze_results_detailed`` (fc93391): the first run of four digits (left to right, runs taken
  back to back) that is a year in 1900-2025; ACC_Y counts every reply (no year = wrong), MAE
  averages over the replies that gave a year.

No reply is left out of a denominator by these rules; the shortcut scripts skip a trial whose
image cannot be encoded (``if None in b64_list: continue``), which the task hooks mirror.
"""

from __future__ import annotations

import json
import re
from typing import Any

YEAR_RANGE = (1900, 2025)  # get_acc_news.py: MIN_YEAR, MAX_YEAR
_JSON_ANSWER_DIGIT = re.compile(r'"answer":\s*"(\d)"')
_ONE_OR_TWO = re.compile(r"[12]")
_FOUR_DIGITS = re.compile(r"(\d{4})")
EXCEPTION = "Exception"  # what the scripts record when reading the reply raises


def shortcut_prediction(reply: Any) -> str:
    """The prediction string of shortcut_test.py's query_vllm ("1", "2", or anything else: wrong)."""
    raw = str(reply or "").strip()
    try:
        parsed = json.loads(raw)
    except json.JSONDecodeError:
        found = _JSON_ANSWER_DIGIT.search(raw)
        return found.group(1) if found else raw
    except Exception:  # noqa: BLE001 - e.g. a 5,000-digit number or deep nesting: the scripts record "Exception"
        return EXCEPTION
    if not isinstance(parsed, dict):  # parsed.get raises: the script records "Exception: ..."
        return EXCEPTION
    answer = str(parsed.get("answer", "")).strip()
    if "1" in answer:
        return "1"
    if "2" in answer:
        return "2"
    return answer


def shortcut_cot_prediction(reply: Any) -> str:
    """The prediction string of shortcut_with_CoT.py's query_vllm."""
    raw = str(reply or "").strip()
    try:
        parsed = json.loads(raw)
    except json.JSONDecodeError:
        return "Parse Fail"
    except Exception:  # noqa: BLE001 - e.g. a 5,000-digit number or deep nesting: the scripts record "Exception"
        return EXCEPTION
    if not isinstance(parsed, dict):
        return EXCEPTION
    answer = str(parsed.get("answer", "")).strip()
    found = _ONE_OR_TWO.search(answer)
    return found.group(0) if found else answer


def shortcut_correct(reply: Any, gold: str, cot: bool = False) -> float:
    """1.0 when the release's prediction equals the gold position ("1" or "2"), else 0.0."""
    prediction = shortcut_cot_prediction(reply) if cot else shortcut_prediction(reply)
    return float(prediction == str(gold))


def multimodal_correct(reply: Any, gold: Any) -> float:
    """1.0 when the gold image number appears anywhere in the (stripped) reply."""
    return float(str(gold) in str(reply or "").strip())


def news_year(reply: Any) -> int | None:
    """The year get_acc_news.py reads: the first four-digit run that is a year in 1900-2025, or None."""
    if not isinstance(reply, str):
        return None
    for run in _FOUR_DIGITS.findall(reply):
        year = int(run)
        if YEAR_RANGE[0] <= year <= YEAR_RANGE[1]:
            return year
    return None


__all__ = [
    "EXCEPTION",
    "YEAR_RANGE",
    "multimodal_correct",
    "news_year",
    "shortcut_correct",
    "shortcut_cot_prediction",
    "shortcut_prediction",
]
