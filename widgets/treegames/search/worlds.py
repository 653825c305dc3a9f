"""Worlds a player may be in: determinizations of hidden information from what the player can see.

For a game without hidden information the world is the state itself.  In Mighty
Trees a player sees their own Command and every public card, but not the other
Commands or which cards are still in the draw pile.  :class:`WorldSampler` is built
from ``state.view_for(player)`` and the state's public fields only: the unknown
cards are the deck minus every card that player can see.  Each call to
:meth:`WorldSampler.sample` deals those unknown cards at random (with the injected
``random.Random``) into the other Commands, at their known sizes, and the draw pile.
The hidden cards of the real state are never read, so two states that look the
same to the player give the same worlds for the same random numbers.
"""

from __future__ import annotations

import random
from typing import Any

from .. import core

__all__ = ["WorldSampler", "HiddenInformationError", "unseen_cards"]


class HiddenInformationError(ValueError):
    """A state the world sampler cannot work from (a player who is not in the game, cards that do not add up)."""


def _card_ids(cards: Any) -> list[int]:
    """The ids of the cards in a tuple that may hold None for an empty slot."""
    return [card.id for card in cards if card is not None]


def _visible_ids(view: Any) -> int:
    """A bitmask of every card id the view shows: own Command, trees, litter, weather and trends."""
    seen = _card_ids(view.hand) + _card_ids(view.litter) + _card_ids(view.trends)
    for row in view.understory + view.canopy:
        seen += _card_ids(row)
    seen += [card.id for card, _owner, _rounds in view.weather]
    mask = 0
    for card in seen:
        mask |= 1 << card
    return mask


def unseen_cards(game: Any, view: Any) -> list[int]:
    """The ids of every card of ``game``'s deck that ``view`` does not show (the other Commands and the draw pile)."""
    return core.bits(game.deck_mask & ~_visible_ids(view))


class WorldSampler:
    """Samples full states consistent with what ``player`` sees in ``state`` (the state itself if nothing is hidden)."""

    def __init__(self, state: Any, player: int):
        self.player = player
        self._source = state  # only for pickling (see __reduce__): samples never read its hidden cards
        self.hidden = bool(state.game.game_type.has_hidden_information)
        if not self.hidden:
            self._state = state
            return
        if not 0 <= player < state.num_players:
            raise HiddenInformationError(f"there is no player {player} in a {state.num_players}-player game")
        view = state.view_for(player)
        self.sizes = tuple(view.hand_sizes)
        self.draw_size = view.draw_size
        self.own_hand = sum(1 << card for card in _card_ids(view.hand))
        self.unknown = unseen_cards(state.game, view)
        needed = sum(s for p, s in enumerate(self.sizes) if p != player) + self.draw_size
        if needed != len(self.unknown):
            raise HiddenInformationError(
                f"the view shows {len(self.unknown)} unseen cards, but the other Commands and the draw pile "
                f"hold {needed}")
        base = state._draft()  # a writable copy: its hidden fields are overwritten in every sample
        base.hands = tuple(self.own_hand if p == player else 0 for p in range(len(self.sizes)))
        base.draw = ()
        base._trail, base._history = None, ()  # the real history names cards drawn by others
        base.__class__ = type(state)
        self._base = base

    def __reduce__(self) -> tuple:
        """Pickled as the state and player it was built from (its base world has no replayable history)."""
        return (WorldSampler, (self._source, self.player))

    def sample(self, rng: random.Random) -> Any:
        """One world: the unknown cards dealt at random to the other Commands and the draw pile."""
        if not self.hidden:
            return self._state
        cards = list(self.unknown)
        rng.shuffle(cards)
        hands, at = [], 0
        for p, size in enumerate(self.sizes):
            if p == self.player:
                hands.append(self.own_hand)
                continue
            mask = 0
            for card in cards[at:at + size]:
                mask |= 1 << card
            hands.append(mask)
            at += size
        world = self._base._draft()
        world._trail, world._history = None, ()
        world.hands = tuple(hands)
        world.draw = tuple(sorted(cards[at:]))
        world.__class__ = type(self._base)
        return world
