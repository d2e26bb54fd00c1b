"""Model names for lmms-eval's ``LMMS_EVAL_PLUGINS=chronotasks`` route.

The backends themselves live in ``model_shims/`` and are registered through the
``lmms_eval.models`` entry point, which is all ``--model`` needs. lmms-eval
0.7.3's ``lmms-eval models`` listing, however, shows only models known through
this older plugin route, which expects ``chronotasks.models.<name>.<Class>``:
each module here re-exports one shim so the listing shows it.
"""

from chronotasks.model_shims.arguments import BACKENDS

AVAILABLE_MODELS = {model_id: path.rsplit(".", 1)[1] for model_id, path in BACKENDS.items()}
