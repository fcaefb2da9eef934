"""A certificate authority of this table's own, for ``make run HTTPS=1``.

Browsers give a service worker, a wake lock and the share sheet only to https pages (or to the
machine itself), and a phone at the table reaches the laptop by a bare network address that no
public authority certifies. So the laptop makes an authority once, each phone trusts it once,
and the authority signs a certificate for the laptop's addresses and names.

Everything lives in ``<instance>/tls/``: the authority (``ca.pem``, its key ``ca-key.pem``) and
the server's certificate (``cert.pem``, its key ``key.pem``); keys are written mode 0600. Later
runs reuse them. The server's certificate is made again when it nears its end, when it does not
name one of today's addresses, or when the authority changed; the authority itself only when it
nears its end or its name constraints do not cover an address (the phones then trust it anew).

The authority may only certify the names it was made for, and private addresses: should its key
ever leak, it could not impersonate a bank to the phones that trust it.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

FOLDER = "tls"
CA_FILE = "ca.pem"
CA_KEY_FILE = "ca-key.pem"
CERT_FILE = "cert.pem"
KEY_FILE = "key.pem"

CA_LIFETIME = timedelta(days=3650)
CERT_LIFETIME = timedelta(days=397)
"""Browsers refuse a server certificate valid for more than 398 days."""
RENEW_BEFORE = timedelta(days=30)
"""A certificate this close to its end is made again."""
CA_RENEW_BEFORE = CERT_LIFETIME + RENEW_BEFORE
"""The authority must outlive every certificate it signs."""
BACKDATE = timedelta(minutes=5)
"""Start a little in the past: a phone whose clock is slightly behind still accepts it."""

PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(network)
    for network in (
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "127.0.0.0/8",
        "::1/128",
        "fc00::/7",
    )
)

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True, slots=True)
class Names:
    """What a certificate names: host names and IP addresses."""

    dns: tuple[str, ...]
    ips: tuple[Address, ...]

    @classmethod
    def of(cls, names: Iterable[str]) -> Names:
        """Split `names` into addresses and host names (lower case, no duplicates)."""
        dns: list[str] = []
        ips: list[Address] = []
        for name in names:
            name = name.strip().lower().rstrip(".")
            if not name:
                continue
            try:
                ip = ipaddress.ip_address(name)
            except ValueError:
                if name not in dns:
                    dns.append(name)
            else:
                if ip not in ips:
                    ips.append(ip)
        return cls(tuple(dns), tuple(ips))


@dataclass(frozen=True, slots=True)
class Certificates:
    """The files of the table's authority and server certificate, and what this run made."""

    folder: Path
    made_authority: bool
    made_certificate: bool

    @property
    def ca(self) -> Path:
        return self.folder / CA_FILE

    @property
    def cert(self) -> Path:
        return self.folder / CERT_FILE

    @property
    def key(self) -> Path:
        return self.folder / KEY_FILE


def ensure(folder: Path, names: Sequence[str], now: datetime | None = None) -> Certificates:
    """The authority and a server certificate for `names` in `folder`, made when missing,
    nearing their end, or not covering `names`; otherwise those made before."""
    now = now or datetime.now(UTC)
    wanted = Names.of(names)
    folder.mkdir(parents=True, exist_ok=True)
    ca = _read_authority(folder)
    made_authority = ca is None or not _authority_fits(ca[0], wanted, now)
    if made_authority:
        ca = _new_authority(wanted, now)
        _write(folder / CA_KEY_FILE, _key_pem(ca[1]), private=True)
        _write(folder / CA_FILE, ca[0].public_bytes(serialization.Encoding.PEM))
    assert ca is not None
    current = _read_certificate(folder / CERT_FILE)
    made_certificate = (
        made_authority
        or current is None
        or not (folder / KEY_FILE).exists()
        or not _certificate_fits(current, ca[0], wanted, now)
    )
    if made_certificate:
        key = ec.generate_private_key(ec.SECP256R1())
        certificate = _new_certificate(key, ca, wanted, now)
        _write(folder / KEY_FILE, _key_pem(key), private=True)
        _write(folder / CERT_FILE, certificate.public_bytes(serialization.Encoding.PEM))
    return Certificates(folder, made_authority, made_certificate)


def authority_der(ca_file: Path) -> bytes:
    """The authority's certificate as phones install it (DER, a ``.crt`` file)."""
    certificate = x509.load_pem_x509_certificate(ca_file.read_bytes())
    return certificate.public_bytes(serialization.Encoding.DER)


def fingerprint(ca_file: Path) -> str:
    """The authority's SHA-256 fingerprint, as phones show it (pairs of hex digits)."""
    certificate = x509.load_pem_x509_certificate(ca_file.read_bytes())
    return certificate.fingerprint(hashes.SHA256()).hex(" ").upper()


def authority_name(ca_file: Path) -> str:
    """The authority's name, as a phone's list of trusted certificates shows it."""
    certificate = x509.load_pem_x509_certificate(ca_file.read_bytes())
    names = certificate.subject.get_attributes_for_oid(NameOID.COMMON_NAME)
    return str(names[0].value) if names else ""


def permitted_networks(ips: Iterable[Address]) -> list[Network]:
    """The address ranges an authority for `ips` may certify: the private ranges, and any
    other address alone."""
    networks: list[Network] = list(PRIVATE_NETWORKS)
    for ip in ips:
        if not any(ip in network for network in networks):
            networks.append(ipaddress.ip_network(ip))
    return networks


def _authority_fits(ca: x509.Certificate, wanted: Names, now: datetime) -> bool:
    if ca.not_valid_after_utc - now < CA_RENEW_BEFORE:
        return False
    constraints = ca.extensions.get_extension_for_class(x509.NameConstraints).value
    permitted = constraints.permitted_subtrees or []
    hosts = [tree.value for tree in permitted if isinstance(tree, x509.DNSName)]
    networks = [
        tree.value
        for tree in permitted
        if isinstance(tree, x509.IPAddress)
        and isinstance(tree.value, ipaddress.IPv4Network | ipaddress.IPv6Network)
    ]
    return all(
        any(name == host or name.endswith("." + host) for host in hosts) for name in wanted.dns
    ) and all(any(ip in network for network in networks) for ip in wanted.ips)


def _certificate_fits(
    certificate: x509.Certificate, ca: x509.Certificate, wanted: Names, now: datetime
) -> bool:
    if certificate.issuer != ca.subject or certificate.not_valid_after_utc - now < RENEW_BEFORE:
        return False
    try:
        certificate.verify_directly_issued_by(ca)
    except (ValueError, TypeError, InvalidSignature):
        return False
    named = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return set(wanted.dns) <= set(named.get_values_for_type(x509.DNSName)) and set(
        wanted.ips
    ) <= set(named.get_values_for_type(x509.IPAddress))


def _new_authority(
    wanted: Names, now: datetime
) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Hand and Foot score keeper"),
            x509.NameAttribute(NameOID.COMMON_NAME, f"Card table authority {now:%Y-%m-%d}"),
        ]
    )
    permitted: list[x509.GeneralName] = [x509.DNSName(host) for host in wanted.dns]
    permitted += [x509.IPAddress(network) for network in permitted_networks(wanted.ips)]
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - BACKDATE)
        .not_valid_after(now + CA_LIFETIME)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_key_usage(cert_sign=True), critical=True)
        .add_extension(x509.NameConstraints(permitted, None), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    return certificate, key


def _new_certificate(
    key: ec.EllipticCurvePrivateKey,
    ca: tuple[x509.Certificate, ec.EllipticCurvePrivateKey],
    wanted: Names,
    now: datetime,
) -> x509.Certificate:
    authority, authority_key = ca
    first = wanted.dns[0] if wanted.dns else str(wanted.ips[0])
    alternative: list[x509.GeneralName] = [x509.DNSName(host) for host in wanted.dns]
    alternative += [x509.IPAddress(ip) for ip in wanted.ips]
    return (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, first)]))
        .issuer_name(authority.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - BACKDATE)
        .not_valid_after(now + CERT_LIFETIME)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(_key_usage(cert_sign=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName(alternative), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(authority_key.public_key()),
            critical=False,
        )
        .sign(authority_key, hashes.SHA256())
    )


def _key_usage(*, cert_sign: bool) -> x509.KeyUsage:
    return x509.KeyUsage(
        digital_signature=not cert_sign,
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=cert_sign,
        crl_sign=cert_sign,
        encipher_only=False,
        decipher_only=False,
    )


def _read_authority(
    folder: Path,
) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey] | None:
    certificate = _read_certificate(folder / CA_FILE)
    try:
        key = serialization.load_pem_private_key((folder / CA_KEY_FILE).read_bytes(), None)
    except (OSError, ValueError, TypeError):
        return None
    if certificate is None or not isinstance(key, ec.EllipticCurvePrivateKey):
        return None
    if _public_der(key.public_key()) != _public_der(certificate.public_key()):
        return None
    return certificate, key


def _public_der(key: object) -> bytes:
    if not isinstance(key, ec.EllipticCurvePublicKey):
        return b""
    return key.public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def _read_certificate(path: Path) -> x509.Certificate | None:
    try:
        return x509.load_pem_x509_certificate(path.read_bytes())
    except (OSError, ValueError):
        return None


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def _write(path: Path, content: bytes, *, private: bool = False) -> None:
    """Write `content` whole (a new file renamed over the old), a key readable by us alone."""
    partial = path.with_name(path.name + ".new")
    descriptor = os.open(
        partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o644
    )
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(content)
    os.replace(partial, path)
