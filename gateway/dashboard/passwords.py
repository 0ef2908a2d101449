"""Owners' passwords: the rules a new password must meet, and its argon2 hash.

Hashing and checking run in a thread of their own pool (:data:`HASHING`): argon2 is
deliberately slow (tens of milliseconds of CPU) and would otherwise stall every request of the
gateway's event loop, and in a pool shared with other work a sign-in would queue behind it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from shared.runtime.blocking import BlockingPool

#: Shortest password accepted. NIST SP 800-63B-4 (2024) asks for at least 15 characters of a
#: password used alone and at least 8 beside a second factor; 12 is OWASP ASVS 5.0's
#: (V6.2.1) floor for a password used alone, with the common-password check below.
PASSWORD_MIN_CHARS = 12
#: Longest password accepted: long enough for any passphrase or manager, short enough that a
#: sign-in form cannot be used to make the server hash megabytes.
PASSWORD_MAX_CHARS = 256
COMMON_PASSWORDS_FILE = Path(__file__).with_name("common_passwords.txt")
# What may surround a common password and still leave it common ("Password123!", "2024dragon").
_DECORATION = re.compile(r"^[\d\W_]+|[\d\W_]+$")

# argon2-cffi's defaults: Argon2id with RFC 9106's second recommended option (t=3, 64 MiB, p=4).
_hasher = PasswordHasher()
#: The threads that hash and check passwords: two hashes at once hold 128 MiB and the cores
#: of a small machine; more would only queue for the same cores.
HASHING = BlockingPool("password-hashing", 2)


@lru_cache(maxsize=1)
def common_passwords() -> frozenset[str]:
    """Return the common passwords (lowercase) of ``common_passwords.txt``."""
    lines = COMMON_PASSWORDS_FILE.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip().lower() for line in lines if line.strip() and not line.startswith("#"))


def password_problem(password: str, email: str = "") -> str | None:
    """Return why ``password`` may not be used (a sentence for the form), or None if it may."""
    if len(password) < PASSWORD_MIN_CHARS:
        return f"Use at least {PASSWORD_MIN_CHARS} characters; a few words make a long password easy to remember."
    if len(password) > PASSWORD_MAX_CHARS:
        return f"Use at most {PASSWORD_MAX_CHARS} characters."
    folded = password.lower()
    if len(set(folded)) <= 2 or _is_decorated_common(folded):
        return "This password is among the most common ones; choose another."
    local_part = email.lower().split("@")[0]
    if local_part and len(local_part) >= 4 and local_part in folded:
        return "The password must not contain your email address."
    return None


def _is_decorated_common(folded: str) -> bool:
    """Return whether ``folded`` is a common password, alone or with digits and symbols
    around it ("password123!", "2024dragon", "1234567890123")."""
    common = common_passwords()
    if folded in common or _DECORATION.sub("", folded) in common:
        return True
    return any(
        folded[:end] in common and _DECORATION.fullmatch(folded[end:]) is not None
        for end in range(len(folded) - 1, 5, -1)
    )


async def hash_password(password: str) -> str:
    """Return the argon2id hash of ``password`` (salted, with its parameters, as one string)."""
    return await HASHING.run(_hasher.hash, password)


async def verify_password(password_hash: str | None, password: str) -> bool:
    """Return whether ``password`` matches ``password_hash``. With no hash (an unknown email,
    or an owner who never set a password) a dummy hash is checked, so the answer takes as
    long as for a real owner and its timing does not tell whether the email exists."""
    stored = password_hash or _dummy_hash()

    def check() -> bool:
        try:
            return _hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    matched = await HASHING.run(check)
    return matched and password_hash is not None


@lru_cache(maxsize=1)
def _dummy_hash() -> str:
    return _hasher.hash("not a password anyone has: it only spends the time of a real check")
