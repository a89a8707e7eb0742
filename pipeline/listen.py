"""The address a local server binds: checked before anything listens.

`cdtp site serve` and `cdtp workers` bind loopback unless told otherwise. An
empty --host binds every interface to some libraries and fails in others, and
gRPC takes a port above 65535 modulo 65536: both are refused here, with the
flag named, before a server starts.
"""
from __future__ import annotations

import ipaddress
import sys

from pipeline.errors import CdtpError


def listen_address(host: str, port: int) -> tuple[str, int]:
    """(host, port) to bind, or a CdtpError naming the bad flag.

    A host that is not a loopback address is allowed (a pool for workers on
    other machines) but said on stderr: such a server is reachable from the
    network.
    """
    host = (host or "").strip()
    if not host:
        raise CdtpError("--host is empty: name the address to bind "
                        "(127.0.0.1 for this machine only, 0.0.0.0 for every interface)")
    if not 0 <= port <= 65535:
        raise CdtpError(f"--port {port} is not a TCP port (0 to 65535; 0 = any free port)")
    if not _is_loopback(host):
        print(f"cdtp: note: --host {host} is reachable from other machines; 127.0.0.1 keeps it local",
              file=sys.stderr)
    return host, port


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
