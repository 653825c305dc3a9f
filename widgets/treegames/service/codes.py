"""Join codes, seat tokens and the teacher code.

* A join code is 6 characters from ``ALPHABET``: capital letters and digits without the ones people mix
  up (0 O, 1 I L), 31 symbols, so 31^6 = 887,503,681 codes. With the failed-join limits in ``limits.py``
  (10 wrong codes a minute per visitor, 200 per server) and a few hundred open tables, finding any
  table by trying codes takes years. Codes are read back forgivingly (lower case, spaces and dashes
  are ignored), and shown as ``ABC-DEF``.
* A seat token is ``secrets.token_urlsafe(24)`` (192 random bits); the store keeps only its SHA-256.
* The teacher code is 8 characters from the same alphabet, kept in the data folder
  (``teacher-code.txt``, mode 600), and checked with ``hmac.compare_digest``.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""31 symbols: no 0/O, 1/I/L."""

CODE_LENGTH = 6
TEACHER_LENGTH = 8


def new_code(length: int = CODE_LENGTH) -> str:
    """A random code of ``length`` symbols from ALPHABET (``secrets``, not ``random``)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def is_encodable(text: str) -> bool:
    """Whether ``text`` can be sent and stored as UTF-8 (a lone surrogate, half of a pasted emoji, cannot)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def unencodable(value: object, where: str = "") -> str | None:
    """Where the first text in ``value`` that cannot be encoded sits ('label', 'options.name'), or None."""
    if isinstance(value, str):
        return None if is_encodable(value) else (where or "text")
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and not is_encodable(key):
                return where or "a name"
            found = unencodable(item, f"{where}.{key}" if where else str(key))
            if found:
                return found
    elif isinstance(value, list | tuple):
        for item in value:
            found = unencodable(item, where)
            if found:
                return found
    return None


def normal_code(text: object) -> str:
    """The code as stored: upper case, without spaces or dashes; '' for anything that is not short ASCII text."""
    if not isinstance(text, str) or len(text) > 40 or not text.isascii():
        return ""
    return "".join(text.split()).replace("-", "").upper()


def shown_code(code: str) -> str:
    """A code as people read it: ``ABC-DEF``."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def new_token() -> str:
    """A fresh seat token (192 random bits, URL-safe)."""
    return secrets.token_urlsafe(24)


def token_hash(token: object) -> str:
    """What the store keeps of a token: its SHA-256 in hex ('' for anything not a short string)."""
    if not isinstance(token, str) or not 8 <= len(token) <= 100 or not token.isascii():
        return ""
    return hashlib.sha256(token.encode()).hexdigest()


def same_code(given: object, expected: str) -> bool:
    """Whether ``given`` is the teacher code ``expected`` (constant time)."""
    return hmac.compare_digest(normal_code(given).encode(), normal_code(expected).encode())


def teacher_code(data_dir: Path) -> str:
    """The teacher code kept in ``data_dir/teacher-code.txt``, made on first use (readable by its owner only)."""
    path = Path(data_dir) / "teacher-code.txt"
    if path.exists():
        code = normal_code(path.read_text().strip())
        if len(code) == TEACHER_LENGTH and set(code) <= set(ALPHABET):
            return code
    path.parent.mkdir(parents=True, exist_ok=True)
    code = new_code(TEACHER_LENGTH)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(shown_code(code) + "\n")
    return code
