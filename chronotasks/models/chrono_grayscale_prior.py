from chronotasks.model_shims.baselines import GrayscalePriorBaseline

__all__ = ["GrayscalePriorBaseline"]
