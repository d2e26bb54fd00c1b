from chronotasks.model_shims.baselines import ConstantBaseline

__all__ = ["ConstantBaseline"]
