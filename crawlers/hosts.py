"""Which URLs the crawler may fetch: allowed host:port pairs, and no private addresses.

A crawl is pointed at one site, yet every page it fetches can name any URL in
a link or a redirect. Left unchecked, a page on a loopback mirror could make
the crawler send GETs to any other service on the machine or its network
(`http://127.0.0.1:6379/`, `http://169.254.169.254/latest/meta-data/`). So
every request goes through one pure decision, `HostPolicy.refusal(url)`:

* the scheme is http or https;
* the host **and port** are allowed: the base URL's own host:port (a base URL
  without a port allows the default ports 80 and 443), and each
  `--allowed-domain D` or `D:PORT` (no port: 80 and 443). Host names match
  their subdomains too; IP addresses match only themselves;
* a host that is, or is written as, a private, loopback, link-local, reserved
  or unspecified address is refused unless that exact host is explicitly
  allowed (the base URL of a loopback mirror is such an allowance, for its own
  port only). Legacy IPv4 spellings (`127.1`, `0x7f000001`, `2130706433`) are
  read the way the system resolver reads them, so they cannot slip through;
* `localhost` (and `*.localhost`) counts as loopback.

A host name that *resolves* to a private address is caught at resolution
time by `crawlers.resolver.PublicOnlyResolver`, using `allows_private_host`.

`parse_allowed_domain` validates `--allowed-domain` values: `1`, `com`,
`*.x`, URLs and other junk are refused with a clear message, because a bare
`1` used to suffix-match every host ending in `.1`.
"""
from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass, field
from urllib.parse import urlsplit

DEFAULT_PORTS = frozenset({80, 443})
_LABEL_RE = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
_LEGACY_V4_RE = re.compile(r"^(0x[0-9a-f]+|[0-9]+)(\.(0x[0-9a-f]+|[0-9]+)){0,3}$")


def ip_of(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a host literal denotes, or None for a host name.

    Accepts `[::1]`-style IPv6 (brackets already stripped by urlsplit) and every
    IPv4 form inet_aton accepts (`127.1`, `0x7f.1`, `2130706433`), since the
    system resolver turns those into addresses too.
    """
    host = host.strip().lower().rstrip(".")
    if not host:
        return None
    try:
        return ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        pass
    if _LEGACY_V4_RE.match(host):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    return None


def is_private_address(addr: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Loopback, private (RFC 1918, ULA, CGNAT), link-local, reserved, unspecified or multicast."""
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        addr = addr.ipv4_mapped
    return not addr.is_global or addr.is_multicast


def is_private_host(host: str) -> bool:
    """True for a host literal in a non-public range, and for localhost."""
    host = host.strip().lower().rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    addr = ip_of(host)
    return addr is not None and is_private_address(addr)


def canonical_host(host: str) -> str:
    """Lower case, no trailing dot, IDNA-encoded; IP literals in their canonical spelling."""
    host = host.strip().lower().rstrip(".")
    addr = ip_of(host)
    if addr is not None:
        return str(addr)
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host


@dataclass(frozen=True)
class AllowedHost:
    """One allowance: a host (with its subdomains unless it is an IP) on some ports."""

    host: str
    ports: frozenset[int]
    subdomains: bool = True

    def matches(self, host: str, port: int) -> bool:
        if port not in self.ports:
            return False
        return host == self.host or (self.subdomains and host.endswith("." + self.host))


def _port(text: str, what: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise ValueError(f"{what}: port must be 1-65535, got {text!r}")
    return int(text)


def parse_allowed_domain(value: str) -> AllowedHost:
    """`D` or `D:PORT` -> AllowedHost; ValueError with the reason for anything else."""
    raw = value
    what = f"--allowed-domain {raw!r}"
    value = value.strip().lower()
    if not value or "/" in value or "@" in value or "*" in value or any(c.isspace() for c in value):
        raise ValueError(f"{what}: give a host name such as baike.baidu.com (optionally :PORT), not a URL or pattern")
    host, port_text = value, ""
    if value.startswith("["):  # [v6]:port
        end = value.find("]")
        if end < 0:
            raise ValueError(f"{what}: unclosed [ in an IPv6 address")
        host, rest = value[1:end], value[end + 1 :]
        if rest and not rest.startswith(":"):
            raise ValueError(f"{what}: junk after the IPv6 address")
        port_text = rest[1:]
    elif value.count(":") == 1:
        host, port_text = value.split(":")
    elif value.count(":") > 1:
        host = value  # a bare IPv6 address
    ports = frozenset({_port(port_text, what)}) if port_text or value.endswith(":") else DEFAULT_PORTS
    host = host.lstrip(".") if host.startswith(".") and not host.startswith("..") else host
    try:
        addr = ipaddress.ip_address(host)
    except ValueError:
        addr = None
    if addr is not None:
        return AllowedHost(str(addr), ports, subdomains=False)
    if ip_of(host) is not None:
        raise ValueError(f"{what}: write an IP address in dotted form (a.b.c.d), not {host!r}")
    try:
        ascii_host = host.rstrip(".").encode("idna").decode("ascii")
    except UnicodeError:
        raise ValueError(f"{what}: {host!r} is not a valid host name") from None
    labels = ascii_host.split(".")
    if not all(_LABEL_RE.match(label) for label in labels) or len(ascii_host) > 253:
        raise ValueError(f"{what}: {host!r} is not a valid host name")
    if labels[-1].isdigit():
        raise ValueError(f"{what}: {host!r} is neither an IP address nor a host name (its last label is a number)")
    if len(labels) < 2 and ascii_host != "localhost":
        raise ValueError(f"{what}: {host!r} is a top-level name and would match every host under it; give a full domain")
    return AllowedHost(ascii_host, ports, subdomains=True)


def base_allowance(base_url: str) -> AllowedHost:
    """The base URL's own host:port (its default ports when it names none)."""
    parts = urlsplit(base_url)
    host = canonical_host(parts.hostname or "")
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"--base-url {base_url!r} has an invalid port") from None
    ports = frozenset({port}) if port is not None else DEFAULT_PORTS
    return AllowedHost(host, ports, subdomains=ip_of(host) is None and host != "localhost")


@dataclass(frozen=True)
class HostPolicy:
    """The crawl's fetch allowances; `refusal(url)` is None when the URL may be fetched."""

    allowed: tuple[AllowedHost, ...] = ()
    explicit_hosts: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def build(cls, base_url: str, allowed_domains: list[str] | tuple[str, ...] = ()) -> "HostPolicy":
        allowances = [base_allowance(base_url), *(parse_allowed_domain(d) for d in allowed_domains)]
        return cls(tuple(allowances), frozenset(a.host for a in allowances))

    @property
    def host_names(self) -> list[str]:
        """Allowed hosts without ports (what Scrapy's own offsite filter understands)."""
        return sorted({a.host for a in self.allowed})

    def allows_private_host(self, host: str) -> bool:
        """A private address may be reached only through a host named explicitly."""
        return canonical_host(host) in self.explicit_hosts

    def refusal(self, url: str) -> str | None:
        """None, or the reason the URL must not be fetched: bad_scheme, offsite, private_address.

        The URL is judged as Scrapy will send it (w3lib's WHATWG-style
        normalisation, which reads `http://10.0.0.1\\@127.0.0.1:8000/` as host
        10.0.0.1), never as urllib alone would read it.
        """
        try:
            from w3lib.url import safe_url_string

            parts = urlsplit(safe_url_string(url))
            port = parts.port
        except ValueError:
            return "bad_url"
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return "bad_scheme"
        host = canonical_host(parts.hostname)
        if port is None:
            port = 443 if parts.scheme == "https" else 80
        if is_private_host(host) and host not in self.explicit_hosts:
            return "private_address"
        if not any(a.matches(host, port) for a in self.allowed):
            return "offsite"
        return None
