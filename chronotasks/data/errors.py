"""The error type of bad or missing data (light to import: the CLI catches it for every command)."""


class DataError(RuntimeError):
    """Bad or missing task data; the message names the file, record and field. ``problems``: each
    problem found, one line each (``chronotasks check-data`` lists them all)."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or [message]

    @classmethod
    def listing(cls, problems: list[str], shown: int = 20) -> "DataError":
        """One error for many problems: the first ``shown`` of them in its message, all in ``problems``."""
        if len(problems) == 1:
            return cls(problems[0])
        lines = "\n  ".join(problems[:shown])
        more = f"\n  ... and {len(problems) - shown} more" if len(problems) > shown else ""
        return cls(f"{len(problems)} problems (`chronotasks check-data` lists every one):\n  {lines}{more}", problems)


def json_problem(err: ValueError) -> str:
    """What is wrong in a JSON text and where, as one phrase. ``json.JSONDecodeError.msg`` alone can
    stop mid-sentence ("Invalid control character at"): its position is only in ``str(err)``."""
    msg, column = getattr(err, "msg", str(err)), getattr(err, "colno", None)
    msg = msg.removesuffix(" at")
    text = f"{msg} at column {column}" if column else msg
    if msg.startswith("Invalid control character"):
        text += " (a tab, newline or other control character inside a string: write it as \\t, \\n or \\uXXXX)"
    return text


class SettingsError(SystemExit):
    """A setting a backend cannot run with (a judge model that is not there, a cache folder that
    cannot be written), found when it starts: one line on stderr and exit status 1, before anything
    is generated. A ``SystemExit``, because lmms-eval turns any ``Exception`` into a logged
    traceback and exit status 0."""

    def __init__(self, message: str) -> None:
        super().__init__(f"chronotasks: error: {message}")
