from chronotasks.model_shims.chrono_embed import ChronoEmbed

__all__ = ["ChronoEmbed"]
