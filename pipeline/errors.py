"""The one exception type the command line turns into a clear message."""


class CdtpError(Exception):
    """A user-facing error: bad arguments, unreadable input, a missing file.

    The CLI prints `cdtp: error: <message>` and exits with status 2; it never
    shows a traceback for these.
    """
