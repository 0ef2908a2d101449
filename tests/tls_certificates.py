"""Certificates for TLS receivers on the loopback, made with ``cryptography``: a self-signed
one (which no client trusts), and one issued by a test authority for the names given (which a
client trusts when told the authority's certificate)."""

from __future__ import annotations

import datetime
import ipaddress
import ssl
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


@dataclass(frozen=True)
class Issued:
    """A server's TLS context, and the authority's PEM certificate a client may trust."""

    server: ssl.SSLContext
    authority_pem: bytes

    def client(self) -> ssl.SSLContext:
        """Return a client context trusting only the authority, checking host names."""
        context = ssl.create_default_context(cadata=self.authority_pem.decode())
        return context


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _alternative(names: tuple[str, ...]) -> x509.SubjectAlternativeName:
    entries: list[x509.GeneralName] = []
    for name in names:
        try:
            entries.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            entries.append(x509.DNSName(name))
    return x509.SubjectAlternativeName(entries)


def _certificate(
    subject: str, names: tuple[str, ...], key, issuer: str, issuer_key, authority: bool
) -> x509.Certificate:
    now = datetime.datetime.now(datetime.UTC)
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(subject))
        .issuer_name(_name(issuer))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=authority, path_length=None), critical=True)
    )
    if names:
        builder = builder.add_extension(_alternative(names), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def _server_context(folder: Path, certificate: x509.Certificate, key) -> ssl.SSLContext:
    cert_path, key_path = folder / "server.pem", folder / "server.key"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_path, key_path)
    return context


def self_signed(folder: Path, names: tuple[str, ...] = ("127.0.0.1",)) -> ssl.SSLContext:
    """Return a server context whose certificate for ``names`` is signed by its own key."""
    key = ec.generate_private_key(ec.SECP256R1())
    return _server_context(folder, _certificate(names[0], names, key, names[0], key, authority=False), key)


def issued(folder: Path, names: tuple[str, ...]) -> Issued:
    """Return a server context whose certificate for ``names`` a test authority issued."""
    authority_key = ec.generate_private_key(ec.SECP256R1())
    authority = _certificate(
        "Celestial test authority", (), authority_key, "Celestial test authority", authority_key, authority=True
    )
    key = ec.generate_private_key(ec.SECP256R1())
    server = _server_context(
        folder, _certificate(names[0], names, key, "Celestial test authority", authority_key, authority=False), key
    )
    return Issued(server, authority.public_bytes(serialization.Encoding.PEM))
