"""lmms-eval model backends of chronotasks, registered through the entry-point
group ``lmms_eval.models`` (see pyproject.toml), so ``--model <name>`` works
with no environment variable.

Each manifest maps a ``--model`` name to a class path; lmms-eval imports the
class only when that model is asked for, so heavy backends cost nothing here.
"""

from __future__ import annotations


def manifests():
    """The ModelManifests lmms-eval's registry loads from our entry point."""
    from lmms_eval.models.registry_v2 import ModelManifest

    return [
        ModelManifest(model_id="chrono_random", simple_class_path="chronotasks.model_shims.baselines.RandomBaseline"),
        ModelManifest(model_id="chrono_constant", simple_class_path="chronotasks.model_shims.baselines.ConstantBaseline"),
        ModelManifest(model_id="chrono_grayscale_prior", simple_class_path="chronotasks.model_shims.baselines.GrayscalePriorBaseline"),
        ModelManifest(model_id="chrono_embed", simple_class_path="chronotasks.model_shims.chrono_embed.ChronoEmbed"),
        ModelManifest(model_id="chrono_diffusers", simple_class_path="chronotasks.model_shims.chrono_diffusers.DiffusersT2I"),
    ]
