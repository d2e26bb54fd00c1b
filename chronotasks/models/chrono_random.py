from chronotasks.model_shims.baselines import RandomBaseline

__all__ = ["RandomBaseline"]
