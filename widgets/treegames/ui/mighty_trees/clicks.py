"""Clicks on the card table turned into engine actions: pick a card (or a tree), then where it goes.

No widgets here, so tests drive it directly.  The rules stay in the engine:
which actions exist comes from ``state.legal_actions()``; a click pair that
matches none is turned into the action it would mean and the engine's own
``why_not`` says which rule forbids it.  This module only knows *where* each
action is drawn (its source card or slot, and its target place).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ... import mighty_trees as mt

__all__ = ["Outcome", "ClickResult", "ClickPlanner", "source_of", "targets_of", "viewer_for", "CoverKeeper"]

Tag = tuple


class Outcome(StrEnum):
    """What a click did."""

    SELECT = "select"  # a card or tree is chosen; its targets are highlighted
    DESELECT = "deselect"
    APPLY = "apply"  # a legal action to apply now
    PREVIEW = "preview"  # an attack: show the combat sum and ask to confirm
    REFUSE = "refuse"  # not allowed: the engine's reason is in the message
    NOTHING = "nothing"


@dataclass(frozen=True)
class ClickResult:
    """The outcome of one click, with the action (if any) and the engine's words about it."""

    outcome: Outcome
    action: object | None = None
    message: str = ""


def source_of(action, mover: int) -> Tag | None:
    """Where the player starts an action: a card in the Command or one of their own slots."""
    verb = action.verb
    if verb in (mt.Verb.PLANT, mt.Verb.CLOUD, mt.Verb.TREND, mt.Verb.DISASTER):
        return ("hand", action.card)
    if verb is mt.Verb.DISCARD:
        return ("hand", action.card) if action.place == "hand" else (action.place, mover, action.slot)
    if verb is mt.Verb.GROW:
        return ("understory", mover, action.slot)
    return None


def targets_of(action, view) -> frozenset:
    """The places a click may name to finish an action (empty slots, an attacked tree, a side, the litter)."""
    me, verb = view.mover, action.verb
    if verb is mt.Verb.PLANT:
        if action.player >= 0:
            return frozenset({("understory", action.player, action.slot)})
        return frozenset(("understory", me, s) for s, t in enumerate(view.understory[me]) if t is None)
    if verb is mt.Verb.GROW:
        return frozenset(("canopy", me, s) for s, t in enumerate(view.canopy[me]) if t is None)
    if verb is mt.Verb.DISCARD:
        return frozenset({("litter",)})
    if verb is mt.Verb.DISASTER and action.player >= 0:
        return frozenset({("side", action.player)})
    if verb in (mt.Verb.CLOUD, mt.Verb.TREND, mt.Verb.DISASTER):
        return frozenset({("habitat",)})
    return frozenset()


def _normal(tag: Tag) -> Tag:
    """A gauge belongs to the habitat card."""
    return ("habitat",) if tag and tag[0] == "gauge" else tag


class ClickPlanner:
    """The mover's selection on one state: which sources and targets to light up, and what a click means."""

    def __init__(self, state, selected: Tag | None = None):
        self.state = state
        self.view = state.view_for(state.mover) if state.mover >= 0 else None
        self.selected = selected
        self.legal = state.legal_actions() if state.phase is mt.Phase.BATTLE else []

    def sources(self) -> frozenset:
        """Cards and trees that start at least one legal action."""
        me = self.state.mover
        return frozenset(s for a in self.legal if (s := source_of(a, me)) is not None)

    def actions_from(self, source: Tag) -> list:
        """The legal actions that start at ``source``."""
        me = self.state.mover
        return [a for a in self.legal if source_of(a, me) == source]

    def targets(self) -> frozenset:
        """Where the selected card or tree can go now (empty when nothing is selected)."""
        if self.selected is None:
            return frozenset()
        out: set = set()
        for action in self.actions_from(self.selected):
            out |= targets_of(action, self.view)
        return frozenset(out)

    def highlights(self) -> frozenset:
        """What the table should light up: targets after a choice, else every source."""
        return self.targets() if self.selected is not None else self.sources()

    def click(self, tag: Tag | None) -> ClickResult:
        """The meaning of a click on ``tag`` (from the scene's hit test)."""
        if self.state.phase is not mt.Phase.BATTLE or tag is None:
            return ClickResult(Outcome.NOTHING)
        tag = _normal(tag)
        if self.selected is not None and tag == self.selected:
            return ClickResult(Outcome.DESELECT)
        if self.selected is not None:
            chosen = self._match(tag)
            if chosen is not None:
                if chosen.verb is mt.Verb.PLANT and chosen.player >= 0:
                    return ClickResult(Outcome.PREVIEW, chosen, self.state.describe(chosen))
                return ClickResult(Outcome.APPLY, chosen, self.state.describe(chosen))
            if tag in self.sources():
                return ClickResult(Outcome.SELECT, message=self._select_hint(tag))
            meant = self._meant(tag)
            if meant is not None:
                reason = self.state.why_not(meant)
                if reason:
                    return ClickResult(Outcome.REFUSE, meant, reason)
            return ClickResult(Outcome.REFUSE, None, self._no_target_hint())
        if tag in self.sources():
            return ClickResult(Outcome.SELECT, message=self._select_hint(tag))
        return ClickResult(Outcome.NOTHING)

    def _match(self, tag: Tag):
        """The legal action from the selection to ``tag`` (a tree of a side counts as that side)."""
        fits = [a for a in self.actions_from(self.selected) if tag in targets_of(a, self.view)]
        if not fits and tag[0] in ("understory", "canopy"):
            fits = [a for a in self.actions_from(self.selected) if ("side", tag[1]) in targets_of(a, self.view)]
        if not fits and tag[0] == "side":  # a disaster striking every side: any side will do
            fits = [a for a in self.actions_from(self.selected) if ("habitat",) in targets_of(a, self.view)
                    and a.verb is mt.Verb.DISASTER]
        return fits[0] if fits else None

    def _meant(self, tag: Tag):
        """The action a click pair would name, legal or not (so the engine can say why not)."""
        src, me = self.selected, self.state.mover
        kind = tag[0]
        if src[0] == "hand":
            card = mt.draw_pile_cards()[src[1]]
            if kind == "litter":
                return mt.Action(mt.Verb.DISCARD, card.id, place="hand")
            if card.kind is mt.Kind.TREE:
                if kind in ("understory", "canopy") and tag[1] != me:
                    return mt.Action(mt.Verb.PLANT, card.id, tag[1], kind, tag[2])
                if kind in ("understory", "habitat") or (kind == "side" and tag[1] == me):
                    return mt.Action(mt.Verb.PLANT, card.id)
                return None
            verb = {mt.Kind.CLOUD: mt.Verb.CLOUD, mt.Kind.TREND: mt.Verb.TREND, mt.Kind.DISASTER: mt.Verb.DISASTER}
            if kind == "habitat":
                return mt.Action(verb[card.kind], card.id)
            if card.kind is mt.Kind.DISASTER and kind in ("side", "understory", "canopy"):
                return mt.Action(mt.Verb.DISASTER, card.id, tag[1])
            return None
        place, _player, slot = src
        if kind == "litter":
            return mt.Action(mt.Verb.DISCARD, place=place, slot=slot)
        if place == "understory" and kind == "canopy":
            return mt.Action(mt.Verb.GROW, slot=slot)
        return None

    def _select_hint(self, tag: Tag) -> str:
        """Words after choosing: what the chosen thing can do (the engine describes each action)."""
        actions = self.actions_from(tag)
        return " | ".join(self.state.describe(a) for a in actions[:4])

    def _no_target_hint(self) -> str:
        """Words when a click matches nothing the chosen card could do."""
        return "That place is not a target for the chosen card: click a highlighted place, or choose again."


# ---------------------------------------------------------------- whose eyes are on the screen


def viewer_for(state, people: tuple[int, ...], last: int | None) -> int:
    """The player whose view is drawn: the mover if a person, else the person who looked last (or P1)."""
    if state.mover >= 0 and state.mover in people:
        return state.mover
    if last is not None:
        return last
    return people[0] if people else max(state.mover, 0)


class CoverKeeper:
    """The hand cover between people at one screen: down whenever a different person is about to look."""

    def __init__(self, people: tuple[int, ...]):
        self.people = tuple(people)
        self.seen_by: int | None = None  # the person whose hand was last shown
        self.covered = False

    def update(self, viewer: int) -> bool:
        """Lower the cover if ``viewer`` is not the person who looked last (only with 2+ people); covered?"""
        if len(self.people) >= 2 and viewer in self.people and viewer != self.seen_by:
            self.covered = True
        return self.covered

    def reveal(self, viewer: int) -> None:
        """The person at the screen pressed the cover: show their hand."""
        self.covered = False
        self.seen_by = viewer

    def text(self, viewer: int) -> str:
        """The words on the cover."""
        return f"Pass to P{viewer + 1} — press to show your hand"
