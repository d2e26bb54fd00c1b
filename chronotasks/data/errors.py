"""The error type of bad or missing data (light to import: the CLI catches it for every command)."""


class DataError(RuntimeError):
    """Bad or missing task data; the message names the file, record and field."""
