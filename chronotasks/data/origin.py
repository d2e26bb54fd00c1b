"""Where a record came from, logged with every sample (light to import: the report reads it).

Every record that ``chronotasks demo-data`` writes carries ``data_origin`` = ``DEMO_ORIGIN``, and every
task's ``process_results`` logs it beside its metrics (``origin_of``), so the ``--log_samples`` files
of a run on demo data say so, wherever the records were copied to, and ``chronotasks report`` puts
"synthetic demo data" on the page. lmms-eval aggregates only the metrics a task lists, so the field is
logged and never aggregated.
"""

from __future__ import annotations

from typing import Any

DATA_ORIGIN = "data_origin"
DEMO_ORIGIN = "chronotasks demo-data (synthetic)"


def origin_of(doc: dict[str, Any]) -> dict[str, str]:
    """``{"data_origin": ...}`` for a record that names its origin (demo data), else ``{}``."""
    origin = doc.get(DATA_ORIGIN)
    return {DATA_ORIGIN: origin} if origin else {}
