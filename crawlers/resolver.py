"""PublicOnlyResolver: a host name that resolves to a private address is not connected to.

`crawlers.hosts.HostPolicy` judges the URL as written; a host name under an
allowed domain can still resolve to 127.0.0.1 or 10.0.0.5 (a stale record, a
DNS rebinding trick). This resolver, installed through Scrapy's DNS_RESOLVER
setting, checks the address it hands to the connection: a private, loopback,
link-local or reserved address is refused unless the host name was allowed
explicitly (CDTP_EXPLICIT_HOSTS: the base URL's host and each
--allowed-domain). The request then fails with the reason `private_address`.

Twisted reports any resolver failure to Scrapy as "no results" (and logs
anything but a DNSLookupError as a critical traceback), so the refusal is a
DNSLookupError, and the refused name is remembered in REFUSED_NAMES for the
spider to count under its true reason.
"""
from __future__ import annotations

from typing import Any

from scrapy.resolver import CachingThreadedResolver
from twisted.internet.error import DNSLookupError

from crawlers.hosts import canonical_host, ip_of, is_private_address


#: Host names this process refused to connect to (they resolved to a private address).
REFUSED_NAMES: set[str] = set()


class PrivateAddressRefused(DNSLookupError):
    """Raised instead of an address: the name resolved into a non-public range."""

    cdtp_reason = "private_address"


class PublicOnlyResolver(CachingThreadedResolver):
    explicit_hosts: frozenset[str] = frozenset()

    @classmethod
    def from_crawler(cls, crawler: Any, reactor: Any) -> "PublicOnlyResolver":
        resolver = super().from_crawler(crawler, reactor)
        resolver.explicit_hosts = frozenset(canonical_host(h) for h in crawler.settings.getlist("CDTP_EXPLICIT_HOSTS"))
        return resolver

    def _check(self, address: str, name: str) -> str:
        addr = ip_of(address)
        if addr is not None and is_private_address(addr) and canonical_host(name) not in self.explicit_hosts:
            REFUSED_NAMES.add(canonical_host(name))
            raise PrivateAddressRefused(f"{name} resolves to the non-public address {address}")
        return address

    def getHostByName(self, name: str, timeout: Any = ()) -> Any:  # noqa: N802 (Twisted API)
        return super().getHostByName(name, timeout).addCallback(self._check, name)
