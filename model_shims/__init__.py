"""lmms-eval model backends of chronotasks, registered through the entry-point
group ``lmms_eval.models`` (see pyproject.toml), so ``--model <name>`` works
with no environment variable.

Each manifest maps a ``--model`` name to a class path; lmms-eval imports the
class only when that model is asked for, so heavy backends cost nothing here.
"""

from __future__ import annotations


def manifests():
    """The ModelManifests lmms-eval's registry loads from our entry point (one per ``arguments.BACKENDS``)."""
    from lmms_eval.models.registry_v2 import ModelManifest

    from chronotasks.model_shims.arguments import BACKENDS

    return [ModelManifest(model_id=model_id, simple_class_path=path) for model_id, path in BACKENDS.items()]
