"""Each student's random generator: seeded from the operating system; deterministic only for tests.

A kernel's generator is ``random.Random`` seeded with 128 bits from ``secrets``
(the operating system's entropy).  Tests (and the browser tests' servers) set the
environment variable ``TREEGAMES_TEST_RNG_SEED``; then a student's generator is
seeded with that text plus the student's pseudonym, so the pooled counts of a
test class are known exactly in advance.  Nothing in the class server sets it.
"""

from __future__ import annotations

import os
import random
import secrets

__all__ = ["TEST_SEED_ENV", "student_rng", "test_seed"]

TEST_SEED_ENV = "TREEGAMES_TEST_RNG_SEED"


def test_seed() -> str | None:
    """The test-only seed text from the environment, or None (always None on a real server)."""
    return os.environ.get(TEST_SEED_ENV) or None


def student_rng(pseudonym: str = "", seed: str | int | None = None) -> random.Random:
    """A generator for one student: from ``seed`` (tests), else the test environment seed, else the OS."""
    if seed is None and test_seed() is not None:
        seed = f"{test_seed()}/{pseudonym}"
    if seed is None:
        return random.Random(secrets.randbits(128))
    return random.Random(seed)
