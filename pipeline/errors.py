"""The one exception type the command line turns into a clear message."""


class CdtpError(Exception):
    """A user-facing error: bad arguments, unreadable input, a missing file.

    The CLI prints `cdtp: error: <message>` and exits with status 2; it never
    shows a traceback for these.
    """


# How a traceback relayed from a worker's own process names this error
# (`pipeline.errors.CdtpError: <message>`): the CLI tells the user's error by it.
RELAYED_NAME = f"{__name__}.{CdtpError.__name__}"
