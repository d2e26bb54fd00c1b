"""Dataset schemas, loaders, `prepare` converters and the demo-data generator."""
