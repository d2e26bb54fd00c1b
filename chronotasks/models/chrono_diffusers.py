from chronotasks.model_shims.chrono_diffusers import DiffusersT2I

__all__ = ["DiffusersT2I"]
