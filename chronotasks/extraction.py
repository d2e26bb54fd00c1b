"""Reading a reply's answer for the tasks: the rules (``AnswerSpace.parse``), then, only when the
rules find none and it is switched on, an LLM extractor (as VLMEvalKit does).

The extractor is off by default. It is switched on by environment variables:

    CHRONOTASKS_EXTRACTOR_MODEL     model name (setting it switches the extractor on)
    CHRONOTASKS_EXTRACTOR_BASE_URL  OpenAI-compatible endpoint (default: the openai client's)
    CHRONOTASKS_EXTRACTOR_API_KEY   key (default: $OPENAI_API_KEY, or "EMPTY" for local servers)
    CHRONOTASKS_EXTRACTOR_CACHE     cache folder (default: ./chrono_extractor_cache)

It asks the model with the fixed prompt ``prompts/extraction/extract_answer.j2`` (temperature 0)
through ``CachedChatClient`` (disk cache: no call is repeated; retries with backoff on 429/5xx/
timeouts). Its output must be a valid answer of the space -- it is read back by the same rules --
or the sample stays unparsed. A failed call leaves the sample unparsed too (counted, never a lost
run). When the extractor is on, each sample logs ``extractor``: "rules" (the rules decided),
"llm" (the extractor decided) or "none" (no answer); lmms-eval writes it with the sample
(--log_samples) and ``chronotasks audit`` counts it.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from typing import Any

from chronotasks.data.answer_space import AnswerSpace
from chronotasks.prompts import render

log = logging.getLogger(__name__)
PROMPT = "extraction/extract_answer.j2"
NO_ANSWER = "NO ANSWER"


@dataclass(frozen=True)
class ExtractorConfig:
    model: str
    base_url: str | None = None
    api_key: str | None = None
    cache_dir: str = "./chrono_extractor_cache"
    max_retries: int = 5
    timeout: float = 60.0
    backoff_base: float = 1.0

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> ExtractorConfig | None:
        """The configuration in the environment, or None when the extractor is off."""
        env = os.environ if env is None else env
        model = env.get("CHRONOTASKS_EXTRACTOR_MODEL", "").strip()
        if not model:
            return None
        return cls(
            model=model,
            base_url=env.get("CHRONOTASKS_EXTRACTOR_BASE_URL") or None,
            api_key=env.get("CHRONOTASKS_EXTRACTOR_API_KEY") or None,
            cache_dir=env.get("CHRONOTASKS_EXTRACTOR_CACHE") or "./chrono_extractor_cache",
        )


def answer_format(space: AnswerSpace) -> str:
    """What a valid answer of the space looks like, in words, for the prompt."""
    letters = f"{space.letters[0]}-{space.letters[-1]}" if space.n else ""
    if space.kind == "letter":
        return f"one option letter ({letters})"
    if space.kind == "letter_set":
        return f'the letters of every chosen option ({letters}), comma-separated, e.g. "A, C"; write None if the reply chooses no option'
    if space.kind == "k_of_n":
        return f"exactly {space.k} option letters ({letters}), comma-separated"
    if space.kind == "ordering":
        items = ", ".join(str(i) for i in space.items)
        return f"all of {items} in the order the reply gives from oldest to newest, comma-separated"
    if space.kind == "year":
        return f"one four-digit year between {space.lo} and {space.hi}"
    if space.kind == "choice":
        return "one of " + ", ".join(space.choices)
    if space.kind == "dynasty":
        return "one Chinese dynasty or period, e.g. 清代 (Qing) or 宋代 (Song)"
    return "the answer text"


_CLIENTS: dict[ExtractorConfig, Any] = {}
_LOCK = threading.Lock()


def _client(config: ExtractorConfig):
    with _LOCK:
        if config not in _CLIENTS:
            from chronotasks.chat_client import CachedChatClient

            _CLIENTS[config] = CachedChatClient(
                config.base_url,
                config.model,
                api_key=config.api_key,
                cache_dir=config.cache_dir,
                max_retries=config.max_retries,
                timeout=config.timeout,
                backoff_base=config.backoff_base,
            )
        return _CLIENTS[config]


def llm_extract(space: AnswerSpace, reply: Any, options=None, config: ExtractorConfig | None = None) -> Any:
    """The answer the LLM extractor reads in a reply, validated by the rules; None when it finds none,
    its output is not a valid answer, or the call fails."""
    config = config or ExtractorConfig.from_env()
    if config is None or reply is None or not str(reply).strip():
        return None
    prompt = render(PROMPT, answer_format=answer_format(space), options=list(options) if options else None, reply=str(reply))
    try:
        output = _client(config).chat([{"role": "user", "content": prompt}], temperature=0, max_tokens=64)
    except Exception as error:  # noqa: BLE001 - one failed call is one unparsed sample, not a lost run
        log.warning("LLM answer extractor failed: %s", error)
        return None
    output = (output or "").strip()
    if not output or output.upper().startswith(NO_ANSWER):
        return None
    return space.parse(output, options)


def read_answer(space: AnswerSpace, reply: Any, options=None) -> tuple[Any, dict[str, str]]:
    """(the answer, fields to log with the sample). The rules decide; when they find no answer and
    the extractor is on, the extractor may. The fields are {"extractor": "rules"|"llm"|"none"} when
    the extractor is on, {} when it is off (the default)."""
    answer = space.parse(reply, options)
    config = ExtractorConfig.from_env()
    if config is None:
        return answer, {}
    if answer is not None:
        return answer, {"extractor": "rules"}
    answer = llm_extract(space, reply, options, config)
    return answer, {"extractor": "none" if answer is None else "llm"}


__all__ = ["ExtractorConfig", "answer_format", "llm_extract", "read_answer"]
