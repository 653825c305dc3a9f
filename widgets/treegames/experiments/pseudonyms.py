"""Generated pseudonyms ("Red Fox"): the only name a student has in a class experiment; never a real name."""

from __future__ import annotations

import secrets
from collections.abc import Collection

__all__ = ["ADJECTIVES", "ANIMALS", "new_pseudonym", "is_pseudonym"]

ADJECTIVES = (
    "Red", "Blue", "Green", "Golden", "Silver", "Amber", "Coral", "Crimson", "Jade", "Ivory",
    "Misty", "Sunny", "Snowy", "Rainy", "Windy", "Quiet", "Swift", "Brave", "Calm", "Clever",
    "Gentle", "Happy", "Lucky", "Merry", "Nimble", "Proud", "Quick", "Steady", "Bold", "Bright",
)
ANIMALS = (
    "Fox", "Owl", "Bear", "Deer", "Hare", "Otter", "Badger", "Beaver", "Heron", "Lynx",
    "Moose", "Raven", "Robin", "Salmon", "Seal", "Squirrel", "Swan", "Trout", "Wolf", "Wren",
    "Bison", "Crane", "Eagle", "Falcon", "Finch", "Frog", "Gecko", "Hawk", "Koala", "Lark",
    "Mole", "Newt", "Panda", "Puffin", "Quail", "Stork", "Toad", "Turtle", "Vole", "Yak",
)


def new_pseudonym(taken: Collection[str] = (), choice=secrets.choice) -> str:
    """A pseudonym not in ``taken`` ("Red Fox"; "Red Fox 2" only once all 1200 pairs are used)."""
    for _ in range(200):
        name = f"{choice(ADJECTIVES)} {choice(ANIMALS)}"
        if name not in taken:
            return name
    base = f"{choice(ADJECTIVES)} {choice(ANIMALS)}"
    number = 2
    while f"{base} {number}" in taken:
        number += 1
    return f"{base} {number}"


def is_pseudonym(text: str) -> bool:
    """True for a name this module could have generated."""
    parts = text.split(" ")
    return (len(parts) in (2, 3) and parts[0] in ADJECTIVES and parts[1] in ANIMALS
            and (len(parts) == 2 or parts[2].isdigit()))
