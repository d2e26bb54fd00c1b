"""Other names of the option texts our prompts show: models that answer in Chinese name an option
by its translation ("手工雕刻" for "hand carving", "青铜时代" for "Bronze Age").

The table covers the closed vocabularies of the TAB-VLM release: its eight periods, its 19
techniques and 16 materials (the option texts of seed-data/tabvlm). Chinese dynasties are read
by ``chinese_periods``. A name is matched as the option only when no other option of the question
shares it (``letters._option_matcher``).
"""

from __future__ import annotations

NAMES: dict[str, tuple[str, ...]] = {
    # periods (TAB-VLM style-period options, without their year ranges)
    "prehistoric period": ("史前时期", "史前时代", "史前"),
    "bronze age": ("青铜时代", "青铜器时代"),
    "iron age": ("铁器时代",),
    "classical period": ("古典时期", "古典时代"),
    "early medieval period": ("中世纪早期", "早期中世纪"),
    "late medieval period": ("中世纪晚期", "晚期中世纪"),
    "early modern period": ("近代早期", "早期近代", "早期现代"),
    "modern india": ("现代印度", "近现代印度"),
    # techniques
    "block printing": ("木版印刷", "雕版印刷", "木刻版印", "版印"),
    "cloisonné": ("景泰蓝", "掐丝珐琅"),
    "coil technique": ("泥条盘筑", "盘条法", "泥条盘筑法"),
    "digital printing": ("数码印刷", "数字印刷"),
    "glass blowing": ("玻璃吹制", "吹制玻璃"),
    "glaze firing": ("施釉烧制", "釉烧"),
    "hand carving": ("手工雕刻", "手工雕琢"),
    "hand-building clay": ("手工捏塑", "手捏成型", "手工塑形"),
    "hand-painted miniature": ("手绘细密画", "细密画"),
    "iron forging": ("铁器锻造", "锻铁", "铁锻造"),
    "lithography": ("石版印刷", "平版印刷"),
    "lost-wax casting": ("失蜡铸造", "失蜡法"),
    "machine cutting": ("机器切割", "机械切割"),
    "mechanical printing": ("机械印刷",),
    "photography": ("摄影", "照相"),
    "screen printing": ("丝网印刷",),
    "stone masonry": ("石材砌筑", "石砌", "石工"),
    "weaving": ("编织", "纺织"),
    "wheel-thrown pottery": ("轮制陶器", "拉坯陶器", "轮制"),
    # materials
    "acrylic": ("亚克力", "丙烯酸"),
    "bronze": ("青铜",),
    "clay": ("黏土", "粘土"),
    "copper": ("铜", "红铜"),
    "glass": ("玻璃",),
    "gold": ("金", "黄金"),
    "iron": ("铁",),
    "paper": ("纸", "纸张"),
    "plastic": ("塑料",),
    "porcelain": ("瓷器", "瓷"),
    "silk": ("丝绸", "丝"),
    "silver": ("银", "白银"),
    "stone": ("石头", "石材", "石"),
    "synthetic fiber": ("合成纤维",),
    "synthetic pigments": ("合成颜料",),
    "terracotta": ("赤陶", "陶土", "红陶"),
}
# Single-character names ("铁", "金") would be found inside other words (铁器, 金属): only names of
# two or more characters are matched inside a sentence.
_MIN_LENGTH = 2


def translations(option: str) -> tuple[str, ...]:
    """The other names of an option text (lower case, year range removed), or ()."""
    key = " ".join(option.lower().split())
    return tuple(name for name in NAMES.get(key, ()) if len(name) >= _MIN_LENGTH)


__all__ = ["NAMES", "translations"]
