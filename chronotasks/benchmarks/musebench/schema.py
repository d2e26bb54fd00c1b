"""MuseBench artifact records: the standardized schema of Appendix A.2, read from any of the
catalog formats of Appendix A.1 / A.2 (English or Chinese keys), and validated (§3.2.1).

Canonical record (what ``artifacts.jsonl`` holds)::

    {"id": "zj-001", "museum": "Zhejiang Provincial Museum", "museum_key": "zhejiang",
     "unified_number": null,
     "structural_desc": {"title": ..., "category": ..., "period": ..., "size": ..., "author": ..., "grade": ...},
     "dynasty": "Qing",                       # Table 6 period of structural_desc.period (None if unmapped)
     "descriptive_desc": {"description": ...},
     "images": ["path/view1.jpg", "path/view2.jpg", ...]}

Only the structural fields a record has are kept; ``size`` stands for the ``size_cm`` /
``尺寸(cm)`` / ``尺寸`` fields alike.
"""

from __future__ import annotations

import re
from typing import Any

from chronotasks.scoring.chinese_periods import dynasty_of

MUSEUMS = {
    "zhejiang": "Zhejiang Provincial Museum",
    "palace": "The Palace Museum",
    "npm": "National Palace Museum",
}
MUSEUM_ALIASES = {
    "zhejiang": "zhejiang",
    "zhejiang provincial museum": "zhejiang",
    "浙江省博物馆": "zhejiang",
    "浙博": "zhejiang",
    "palace": "palace",
    "the palace museum": "palace",
    "palace museum": "palace",
    "gugong": "palace",
    "故宫博物院": "palace",
    "故宫": "palace",
    "beijing": "palace",
    "npm": "npm",
    "national palace museum": "npm",
    "taipei": "npm",
    "taiwan": "npm",
    "台北故宫博物院": "npm",
    "國立故宮博物院": "npm",
    "台北故宫": "npm",
}
# Structural fields each museum's catalog provides (Appendix A.1); "at most one missing" is
# judged against these.
MUSEUM_FIELDS = {
    "zhejiang": ("title", "category", "period", "size", "grade"),
    "palace": ("title", "category", "period", "author"),
    "npm": ("title", "category", "period", "size"),
}
STRUCTURAL_FIELDS = ("title", "category", "period", "size", "author", "grade")

# Key spellings of Appendix A (English and Chinese; the Chinese keys of Listings 6 and 12 are
# garbled in the paper's text — "片", "文物一", "分", "代", "明" — and are accepted as printed
# next to their evident originals 图片, 文物统一编号, 分类, 年代, 说明).
KEY_ALIASES: dict[str, tuple[str, ...]] = {
    "title": ("title", "名称", "文物名称", "品名"),
    "category": ("category", "馆藏类型", "藏馆类型", "类型", "分类", "类别", "分"),
    "period": ("period", "藏品年代", "年代", "时代", "朝代", "代"),
    "size": ("size", "size_cm", "尺寸(cm)", "尺寸 (cm)", "尺寸（cm）", "尺寸"),
    "author": ("author", "作者"),
    "grade": ("grade", "藏品级别", "级别"),
    "description": ("description", "简介", "说明", "描述", "明"),
    "images": ("images", "图片", "片"),
    "unified_number": ("unified artifact number", "unified_artifact_number", "文物统一编号", "统一编号", "文物一"),
    "id": ("id", "编号"),
    "museum": ("museum", "博物馆"),
}


def _norm_key(key: str) -> str:
    return re.sub(r"\s+", " ", str(key)).strip().rstrip(".").strip().lower()


_LOOKUP = {_norm_key(alias): field for field, aliases in KEY_ALIASES.items() for alias in aliases}


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        value = "；".join(str(v) for v in value if v is not None)
    text = str(value).strip()
    return text if text and text.lower() not in ("none", "null", "nan", "无", "不详", "-", "—") else None


def museum_key(value: Any) -> str | None:
    """'zhejiang' / 'palace' / 'npm' for any spelling of a museum name, else None."""
    if value is None:
        return None
    return MUSEUM_ALIASES.get(_norm_key(value))  # every alias is already in _norm_key form


def flatten(raw: dict[str, Any]) -> dict[str, Any]:
    """Catalog record (A.1 flat or A.2 nested; English or Chinese keys) -> {canonical field: value}.

    Unknown keys are returned under ``_unknown``; ``_keys`` maps each field to the catalog key
    it was read from (for error reports).
    """
    out: dict[str, Any] = {}
    unknown, keys = [], {}
    items = list(raw.items())
    while items:
        key, value = items.pop(0)
        nk = _norm_key(key)
        if nk in ("structural_desc", "descriptive_desc") and isinstance(value, dict):
            items.extend(value.items())
            continue
        field = _LOOKUP.get(nk)
        if field is None:
            unknown.append(key)
        elif field not in out:
            out[field] = value
            keys[field] = key
    out["_unknown"] = unknown
    out["_keys"] = keys
    return out


def infer_museum(fields: dict[str, Any]) -> str | None:
    """Guess the museum from which fields a catalog record carries (Appendix A.1)."""
    if fields.get("museum"):
        return museum_key(fields["museum"])
    if "author" in fields:
        return "palace"
    if "grade" in fields:
        return "zhejiang"
    if "unified_number" in fields:
        return "npm"
    return None


class Rejected(ValueError):
    """A catalog record dropped by validation; ``reason`` is a short code, the message explains."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


_YEAR = re.compile(r"(?<!\d)([12]\d{3})(?!\d)")


def standardize(fields: dict[str, Any], images: list[str], museum: str | None, record_id: str, crawl_year: int) -> dict[str, Any]:
    """One validated canonical record from a ``flatten``-ed catalog record, or ``Rejected`` naming
    the reason.

    ``images`` are the usable local views already resolved by the caller (duplicates removed).
    Rules (§3.2.1): ≥ 2 views; a description; at most one of the museum's structural fields
    missing; no year-like token (YYYY) after ``crawl_year`` in the texts.
    """
    key = museum_key(museum) if museum else infer_museum(fields)
    if key is None:
        raise Rejected("unknown_museum", "cannot tell the museum (no 'museum' field, no --museum, no telling field)")
    structural = {name: _text(fields.get(name)) for name in STRUCTURAL_FIELDS}
    structural = {name: value for name, value in structural.items() if value is not None}
    missing = [name for name in MUSEUM_FIELDS[key] if name not in structural]
    if len(missing) >= 2:
        raise Rejected("missing_structural_fields", f"missing {len(missing)} structural fields: {', '.join(missing)}")
    description = _text(fields.get("description"))
    if description is None:
        raise Rejected("missing_description", "no expert-curated description")
    if len(images) < 2:
        raise Rejected("fewer_than_2_views", f"only {len(images)} usable image view(s); at least 2 are required")
    texts = " ".join([description, *structural.values()])
    late = [int(y) for y in _YEAR.findall(texts) if int(y) > crawl_year]
    if late:
        raise Rejected("year_after_crawl", f"year-like token {late[0]} is after the crawl year {crawl_year}")
    return {
        "id": str(record_id),
        "museum": MUSEUMS[key],
        "museum_key": key,
        "unified_number": _text(fields.get("unified_number")),
        "structural_desc": structural,
        "dynasty": dynasty_of(structural.get("period")),
        "descriptive_desc": {"description": description},
        "images": list(images),
    }
