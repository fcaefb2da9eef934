"""The table's own certificate authority (``make run HTTPS=1``): what it signs, for how long,
and when it makes a certificate again."""

from __future__ import annotations

import ipaddress
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.x509.oid import ExtendedKeyUsageOID

from scorekeeper import local_ca

NOW = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
NAMES = ["localhost", "laptop", "laptop.local", "127.0.0.1", "::1", "192.168.1.20", "10.0.0.7"]


def _load(path: Path) -> x509.Certificate:
    return x509.load_pem_x509_certificate(path.read_bytes())


def _sans(certificate: x509.Certificate) -> tuple[set[str], set[str]]:
    named = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    dns = set(named.get_values_for_type(x509.DNSName))
    ips = {str(ip) for ip in named.get_values_for_type(x509.IPAddress)}
    return dns, ips


@pytest.fixture
def made(tmp_path: Path) -> local_ca.Certificates:
    return local_ca.ensure(tmp_path / "tls", NAMES, now=NOW)


def test_the_certificate_names_every_address_and_name_of_the_machine(made):
    certificate = _load(made.cert)

    assert _sans(certificate) == (
        {"localhost", "laptop", "laptop.local"},
        {"127.0.0.1", "::1", "192.168.1.20", "10.0.0.7"},
    )
    usage = certificate.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert list(usage) == [ExtendedKeyUsageOID.SERVER_AUTH]
    assert certificate.extensions.get_extension_for_class(x509.BasicConstraints).value.ca is False


def test_the_certificate_is_signed_by_the_authority_and_its_key_matches(made):
    authority, certificate = _load(made.ca), _load(made.cert)
    key = serialization.load_pem_private_key(made.key.read_bytes(), None)

    certificate.verify_directly_issued_by(authority)
    assert certificate.issuer == authority.subject
    assert key.public_key().public_numbers() == certificate.public_key().public_numbers()  # type: ignore[union-attr]
    constraints = authority.extensions.get_extension_for_class(x509.BasicConstraints)
    assert constraints.critical and constraints.value.ca and constraints.value.path_length == 0


def test_lifetimes_stay_within_what_browsers_accept(made):
    certificate, authority = _load(made.cert), _load(made.ca)

    lifetime = certificate.not_valid_after_utc - certificate.not_valid_before_utc
    assert lifetime <= timedelta(days=398)
    assert certificate.not_valid_before_utc <= NOW <= certificate.not_valid_after_utc
    assert authority.not_valid_after_utc - NOW == timedelta(days=3650)


def test_the_keys_are_readable_by_their_owner_alone(made):
    for path in (made.key, made.folder / local_ca.CA_KEY_FILE):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert made.made_authority and made.made_certificate


def test_the_authority_may_certify_only_private_addresses_and_its_own_names(made):
    authority = _load(made.ca)

    constraints = authority.extensions.get_extension_for_class(x509.NameConstraints)
    permitted = constraints.value.permitted_subtrees
    assert constraints.critical
    assert {tree.value for tree in permitted if isinstance(tree, x509.DNSName)} == {
        "localhost",
        "laptop",
        "laptop.local",
    }
    networks = {str(tree.value) for tree in permitted if isinstance(tree, x509.IPAddress)}
    assert networks == {
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "127.0.0.0/8",
        "::1/128",
        "fc00::/7",
    }


def test_a_public_address_is_permitted_alone():
    networks = local_ca.permitted_networks([ipaddress.ip_address("203.0.113.9")])

    assert ipaddress.ip_network("203.0.113.9/32") in networks
    assert not any(ipaddress.ip_address("203.0.113.10") in network for network in networks)


def test_a_later_run_reuses_both(made, tmp_path):
    before = {path: path.read_bytes() for path in made.folder.iterdir()}

    again = local_ca.ensure(made.folder, NAMES, now=NOW + timedelta(days=200))

    assert not again.made_authority and not again.made_certificate
    assert {path: path.read_bytes() for path in made.folder.iterdir()} == before


def test_a_certificate_near_its_end_is_renewed_by_the_same_authority(made):
    authority = made.ca.read_bytes()
    later = NOW + timedelta(days=370)

    again = local_ca.ensure(made.folder, NAMES, now=later)

    assert again.made_certificate and not again.made_authority
    assert again.ca.read_bytes() == authority
    renewed = _load(again.cert)
    renewed.verify_directly_issued_by(_load(again.ca))
    assert renewed.not_valid_after_utc - later > timedelta(days=396)


def test_a_new_address_gives_a_new_certificate_and_keeps_the_authority(made):
    authority = made.ca.read_bytes()

    again = local_ca.ensure(made.folder, [*NAMES, "192.168.7.40"], now=NOW + timedelta(days=1))

    assert again.made_certificate and not again.made_authority
    assert again.ca.read_bytes() == authority
    assert "192.168.7.40" in _sans(_load(again.cert))[1]


def test_a_name_the_authority_may_not_certify_makes_a_new_authority(made):
    again = local_ca.ensure(made.folder, [*NAMES, "table.test"], now=NOW + timedelta(days=1))

    assert again.made_authority and again.made_certificate
    assert "table.test" in _sans(_load(again.cert))[0]


def test_an_authority_near_its_end_is_made_again(made):
    later = NOW + timedelta(days=3650 - 400)

    again = local_ca.ensure(made.folder, NAMES, now=later)

    assert again.made_authority
    assert _load(again.ca).not_valid_after_utc - later == timedelta(days=3650)


def test_a_damaged_or_missing_file_is_made_again(made):
    made.cert.write_text("not a certificate")
    assert local_ca.ensure(made.folder, NAMES, now=NOW).made_certificate

    (made.folder / local_ca.CA_KEY_FILE).unlink()
    again = local_ca.ensure(made.folder, NAMES, now=NOW)
    assert again.made_authority and again.made_certificate
    _load(again.cert).verify_directly_issued_by(_load(again.ca))


def test_phones_get_the_authority_as_der_with_its_fingerprint(made):
    der = local_ca.authority_der(made.ca)

    assert x509.load_der_x509_certificate(der) == _load(made.ca)
    fingerprint = local_ca.fingerprint(made.ca)
    assert len(fingerprint.split(" ")) == 32
    assert local_ca.authority_name(made.ca) == "Card table authority 2026-11-26"


def test_a_certificate_of_another_authority_of_the_same_name_is_made_again(made, tmp_path):
    other = local_ca.ensure(tmp_path / "other", NAMES, now=NOW)
    assert _load(other.ca).subject == _load(made.ca).subject  # same name, another key
    made.cert.write_bytes(other.cert.read_bytes())
    made.key.write_bytes(other.key.read_bytes())

    again = local_ca.ensure(made.folder, NAMES, now=NOW)

    assert again.made_certificate and not again.made_authority
    _load(again.cert).verify_directly_issued_by(_load(again.ca))
