"""Play Mighty Trees: the card table on the kit's GameDashboard, with hidden hands kept hidden.

What this adds to the dashboard base (:class:`~treegames.ui.dashboard.GameDashboard`):

* the table picture (:func:`.scene.table_scene`) drawn from ONE player's
  view (``state.view_for(player)``): the person whose turn it is, else the person
  who looked last; bots' Commands are never drawn (except in the Teacher view);
* the hand cover between two or more people at one screen ("Pass to P2 - press
  to show your hand"), which also hides every panel that names the hand;
* two-click play (:mod:`.clicks`): choose a card in the Command (or one of your
  trees), then where it goes; an attack is previewed with the combat sum from
  the engine (``describe``) and needs Confirm; anything else not allowed is
  answered with the engine's ``why_not`` and nothing changes;
* an Actions tab listing every legal action in the engine's words, and an Odds
  tab with the next Regroup's odds from the drawing player's point of view;
* at a shared table (the Play with others tab), the page holds no game at all:
  each moment is a :class:`.seat.SeatState`, this seat's own view from the
  table's authority (a spectator: the public view), and everything above is
  drawn from it; the hand cover and the Teacher view are not offered there.
"""

from __future__ import annotations

import ipywidgets as widgets

from ... import core
from ... import mighty_trees as mt
from .. import safety
from ..dashboard import GameDashboard
from ..saving import download_link
from ..text import escape, panel
from .clicks import ClickPlanner, CoverKeeper, Outcome
from .lesson import OddsPanel
from .scene import WIDTH, TableOptions, hit_at, scene_height, table_scene
from .seat import SeatState
from .viewing import TableViewing

__all__ = ["MightyTreesPlay", "place_of", "tag_of", "rules_note_html"]

SEAT_NAMES = tuple(f"P{p + 1}" for p in range(max(mt.GAME_TYPE.players)))
DECK = mt.draw_pile_cards()


def place_of(tag: tuple) -> str:
    """A clicked tag as a place name: a card's name, 'P2 understory 1', 'P2', 'litter', 'habitat', 'cover'."""
    kind = tag[0]
    if kind == "hand":
        return DECK[tag[1]].name
    if kind in ("understory", "canopy"):
        return f"P{tag[1] + 1} {kind} {tag[2] + 1}"
    if kind == "side":
        return f"P{tag[1] + 1}"
    if kind == "gauge":
        return "habitat"
    if kind == "draw":
        return "draw pile"
    return kind


def tag_of(place: str) -> tuple | None:
    """The tag for a place name (the inverse of :func:`place_of`), or None."""
    words = place.split()
    if place in ("litter", "habitat", "cover"):
        return (place,)
    if place == "draw pile":
        return ("draw",)
    if len(words) == 3 and words[0][:1] == "P" and words[0][1:].isdigit() and words[1] in ("understory", "canopy") \
            and words[2].isdigit():
        return (words[1], int(words[0][1:]) - 1, int(words[2]) - 1)
    if len(words) == 1 and words[0][:1] == "P" and words[0][1:].isdigit():
        return ("side", int(words[0][1:]) - 1)
    try:
        return ("hand", mt.card_by_name(place).id)
    except KeyError:
        return None


TALL_FROM = 5
"""From 5 players on, the table is taller than a screen: it keeps its full width and the page scrolls."""

TALL_TABLE_CSS = ".treegames-mt-tall .treegames-board-canvas{max-height:none!important}"
"""The kit fits a board's height to the screen; shrunk that far, a 5-8 seat table would be too small to read."""


def full_seats(seats: tuple | None) -> tuple | None:
    """Seats for every possible player (the given ones, then bots), so the New game form offers all 8."""
    if seats is None:
        return None
    more = max(mt.GAME_TYPE.players) - len(seats)
    return tuple(seats) + (next(iter(mt.GAME_TYPE.bots)),) * max(0, more)


def rules_note_html() -> str:
    """Under the New game form: the printed capture rule, every departure and the seat count, in the engine's words."""
    words = mt.words
    labels = {"capture_at_round_end": "Capture at round end: yes", "max_turns": "Max turns"}
    items = [("Capture at round end: no (the default, the printed rule)", words.CAPTURE_AT_ONCE)]
    items += [(labels.get(key, key[:1].upper() + key[1:]), text) for key, text in words.DEPARTURES.items()]
    items.append(("Players", words.SEATS))
    rows = "".join(f"<li><b>{escape(name)}.</b> {escape(text)}</li>" for name, text in items)
    return ("<div style='font-size:13px;line-height:1.5;max-width:640px;margin:6px 0'><b>What the choices mean</b> "
            "(where we depart from the rule sheet's text, it is said here)<ul style='padding-left:18px;margin:2px 0'>"
            f"{rows}</ul></div>")


class MightyTreesPlay(TableViewing, GameDashboard):
    """A whole game of Mighty Trees for 2-8 seats (the rule sheet: 2-6, more can play), each a person or a bot."""

    game_module = mt
    seat_names = SEAT_NAMES
    board_label = "table"
    place_word = "card or slot"

    def __init__(self, seed: int = 1, seats: tuple | None = None, teacher: bool = False, answer: bool = True,
                 **options):
        self.players = options.get("players", mt.GAME_TYPE.defaults()["players"])
        self.selected: tuple | None = None
        self.pending = None  # an attack waiting for Confirm
        self._seen_state = None
        self.cover = CoverKeeper(())
        self.teacher_box = widgets.ToggleButton(value=teacher, description="Teacher view: show every hand",
                                                tooltip="Reveal every Command, for explaining (not for play)",
                                                layout=widgets.Layout(width="auto"))
        self.show_hand_button = widgets.Button(description="Show my hand", layout=widgets.Layout(width="auto"),
                                               tooltip="Lift the hand cover (the others look away)")
        self.preview = widgets.HTML()
        self.confirm_button = widgets.Button(description="Confirm attack", button_style="danger",
                                             layout=widgets.Layout(width="auto"))
        self.cancel_button = widgets.Button(description="Cancel", layout=widgets.Layout(width="auto"))
        self.preview_box = widgets.VBox([self.preview, widgets.HBox([self.confirm_button, self.cancel_button])],
                                        layout=widgets.Layout(display="none"))
        self.preview_box.add_class("treegames-mt-preview")
        self.action_list = widgets.Select(options=[], rows=8, layout=widgets.Layout(width="100%"))
        self.action_button = widgets.Button(description="Play the chosen action", button_style="primary",
                                            layout=widgets.Layout(width="auto"))
        self.actions_note = widgets.HTML()
        self.odds_panel = OddsPanel()
        super().__init__(seed=seed, seats=full_seats(seats), options=options, answer=answer)
        report = self.report_failure
        safety.observe(self.teacher_box, lambda _v: self.refresh(), report=report)
        safety.on_click(self.show_hand_button, lambda: self.play_at("cover"), report=report)
        safety.on_click(self.confirm_button, self.confirm_attack, report=report)
        safety.on_click(self.cancel_button, self.cancel_attack, report=report)
        safety.on_click(self.action_button, self.play_listed, report=report)
        self.save_note.value += (
            "<div style='font-size:13px;color:#9A3A00'>The saved file lists every card drawn, the hidden "
            "Commands included: download it when the game is over, or keep it for the teacher.</div>")
        tall = widgets.HTML(f"<style>{TALL_TABLE_CSS}</style>", layout=widgets.Layout(height="0px", margin="0"))
        self.children = (*self.children, tall)
        self._mark_tall()
        self.rules_note = widgets.HTML(rules_note_html())
        self.rules_note.add_class("treegames-mt-rules-note")
        self.form.children = (*self.form.children, self.rules_note)
        self.add_class("treegames-mighty-trees-play")

    # ------------------------------------------------------------ the kit's hooks

    def board_size(self) -> tuple[int, int]:
        """The table's size for this game's number of players."""
        return (WIDTH, scene_height(self.players))

    def new_game(self, seed: int = 1, seats: tuple | None = None, **options) -> None:
        """Start over (the kit's new_game), with the table sized for the number of players."""
        self.players = options.get("players", mt.GAME_TYPE.defaults()["players"])
        self.selected, self.pending, self._seen_state = None, None, None
        seats_now = tuple(seats or self._default_seats())[: self.players]
        self.cover = CoverKeeper(tuple(p for p, kind in enumerate(seats_now) if kind == "human"))
        super().new_game(seed=seed, seats=seats, **options)
        self._mark_tall()
        self.answer()  # the deal and any bots before the first person play on by themselves

    def _mark_tall(self) -> None:
        """A table of TALL_FROM or more sides keeps its 400 px width and scrolls, instead of shrinking."""
        if self.players >= TALL_FROM:
            self.add_class("treegames-mt-tall")
        else:
            self.remove_class("treegames-mt-tall")

    def side_widgets(self) -> list:
        """The Teacher view toggle, the hand-cover button and the attack preview."""
        row = widgets.HBox([self.teacher_box, self.show_hand_button])
        row.add_class("treegames-buttons")
        return [row, self.preview_box]

    def extra_tabs(self) -> list:
        """The legal actions in the engine's words, and the Odds of the next Regroup."""
        actions = widgets.VBox([self.actions_note, self.action_list, self.action_button])
        return [("Actions", actions), ("Odds", self.odds_panel)]

    def extra_parts(self) -> list:
        """Panels that follow the state on screen."""
        return [self._update_panels]

    def legend_html(self) -> str:
        """What the marks on the table mean."""
        return (
            "<div style='font-size:12px;line-height:1.5;max-width:400px'>Tree cards: colour strip and letter = "
            "water preference (D dry, B balanced, W wet); ☀ plant/grow cost; bars = temperature (T) and water (W) "
            "ranges on the 1-9 scale, the black tick is the habitat now (red when outside). Gauges: hollow mark = "
            "the habitat card's value, filled mark = now. Click a card or one of your trees (outlined), then a "
            "purple-outlined place: an empty slot, a tree to attack, a side, the habitat (weather, disasters) or "
            "the litter pile (discard, 1 Sol).</div>")

    def player_name(self, player: int) -> str:
        """'P1', 'P2', ..."""
        return f"P{player + 1}"

    def board_scene(self, state):
        """The table from the viewer's side, with the cover, selection, targets and Teacher view applied."""
        self._forget_stale_choice(state)
        viewer = self.viewer(state)
        see_own = self.can_see_hand(state, viewer)
        teacher = self.teacher_on()
        shared = isinstance(state, SeatState)
        bot_note = "Watching: every Command stays hidden" if shared else \
            "A bot's Command stays hidden (the Teacher view shows it)"
        options = TableOptions(
            selected=self.selected[1] if self.selected and self.selected[0] == "hand" else None,
            targets=self.highlights(state) | self._selected_slot(),
            covered=not see_own and viewer in self.cover.people,
            cover_text=self.cover.text(viewer),
            hidden_note="" if see_own or viewer in self.cover.people else bot_note,
            revealed={p: state.hand(p) for p in range(state.num_players) if p != viewer} if teacher else {},
            names=tuple(self.seat_label(p) for p in range(state.num_players)),
            sol_note=self.sol_note(state, viewer),
            show_captured=state.game.habitats_to_win > 1,
            fresh=self.fresh_cards(state, viewer) if see_own else frozenset(),
        )
        scene = table_scene(state.view_for(viewer), options)
        self._fit_canvas(scene.height)
        return scene

    def place_at(self, x: float, y: float) -> str | None:
        """The place under a canvas pixel (from the table on screen)."""
        scene = self.board_view.last_scene or self.board_scene(self.state)
        tag = hit_at(scene, x, y)
        return None if tag is None else place_of(tag)

    def places(self) -> list[str]:
        """Every clickable place on the table, top to bottom."""
        scene = self.board_view.last_scene or self.board_scene(self.state)
        boxes = _boxes(scene)
        order = sorted(boxes, key=lambda t: (boxes[t][1], boxes[t][0]))
        return [place_of(t) for t in order if t[0] not in ("gauge", "draw")]

    def place_centre(self, place: str) -> tuple[float, float]:
        """The centre of a place on the table on screen."""
        scene = self.board_view.last_scene or self.board_scene(self.state)
        box = _boxes(scene).get(tag_of(place))
        if box is None:
            return (WIDTH / 2, 20.0)
        return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)

    def cursor_shape(self, place: str) -> list[tuple[float, float]]:
        """The keyboard cursor: the outline of the place's card or slot."""
        scene = self.board_view.last_scene or self.board_scene(self.state)
        box = _boxes(scene).get(tag_of(place))
        if box is None:
            return super().cursor_shape(place)
        x0, y0, x1, y1 = box
        return [(x0 - 3, y0 - 3), (x1 + 3, y0 - 3), (x1 + 3, y1 + 3), (x0 - 3, y1 + 3)]

    def keyboard_targets(self) -> list[str]:
        """Places the keyboard cursor visits: the cover, or what may be clicked now."""
        s = self.state
        if not self.is_human_turn():
            return []
        viewer = self.viewer(s)
        if not self.can_see_hand(s, viewer):
            return ["cover"]
        lit = self.highlights(s)
        return [p for p in self.places() if tag_of(p) in lit or (self.selected and tag_of(p) == self.selected)]

    def action_for(self, state, place: str):
        """The action a click on ``place`` would play now, or None (choosing a card plays nothing yet)."""
        tag = tag_of(place)
        if tag is None or state.phase is not mt.Phase.BATTLE:
            return None
        result = ClickPlanner(state, self.selected).click(tag)
        return result.action if result.outcome in (Outcome.APPLY, Outcome.PREVIEW) else None

    def end_turn_action(self, state):
        """'end' when the engine allows it (at least 1 Sol spent, or nothing to spend on)."""
        return mt.Action(mt.Verb.END) if state.why_not(mt.Action(mt.Verb.END)) is None else None

    def your_move_text(self, state) -> str:
        """What the person to move is told."""
        return f"{self.player_name(state.current_player)}'s move: click a card or one of your trees, then where it goes."

    def scores_html(self, state) -> str:
        """Each seat: who plays it, trees, cards in hand, habitats captured."""
        labels = self.seat_kind_labels()
        rows = []
        view = state.view_for(max(0, state.mover)) if state.habitat_card is not None else None  # counts only
        for p, kind in enumerate(self.seats):
            now = " ◀" if state.current_player == p else ""
            trees = state.tree_count(p)
            hand = view.hand_sizes[p] if view is not None else 0
            who = self.seat_label(p) if isinstance(state, SeatState) else labels.get(kind, kind)
            rows.append(f"<tr><td><b>{escape(self.player_name(p))}</b>{now}</td><td>{escape(who)}"
                        f"</td><td>{trees}</td><td>{hand}</td><td>{state.scores()[p]}</td></tr>")
        return ("<table style='border-collapse:collapse;font-size:13px' cellpadding='3'><tr style='color:#555'>"
                "<th align=left>Player</th><th align=left>Played by</th><th>Trees</th><th>Cards</th>"
                "<th>Captured</th></tr>" + "".join(rows) + "</table>")

    def explanation_html(self, state) -> str:
        """What just happened and the rule now, in the engine's words for the eyes at the screen."""
        happened = escape(state.last_event) if state.last_event else "Nothing yet: the game is about to start."
        words = state.explain(self.reader(state))
        return panel(f"<b>Just happened:</b> {happened}{self.impact_html(state)}<br><b>Now:</b> "
                     + escape(words).replace("\n", "<br>"))

    def impact_html(self, state) -> str:
        """After a disaster or a trend: the sides it struck and each tree it reached, with the engine's verdict.

        Everything comes from the engine's report ``state.last_strike`` (sides, force or axis, each
        tree's measure and reason); the trees on the table are public, so every viewer may read it.
        """
        strike = state.last_strike
        if strike is None:
            return ""
        n = state.num_players
        struck = ", ".join(self.player_name(p) for p in strike.sides)
        spared = [self.player_name(p) for p in range(n) if not strike.struck(p)]
        how = (f"{strike.element.value} force {strike.force}" if strike.force is not None
               else f"{strike.element.value} now {strike.value}")
        head = (f"<b>{escape(strike.card.name)}</b> ({escape(how)}, {escape(strike.targets.value)} trees) struck "
                f"<b>{escape(struck)}</b>" + (f"; not struck: {escape(', '.join(spared))}" if spared else "") + ".")
        rows = []
        for fate in strike.trees:
            verdict = ("stands" if fate.survived else "<b style='color:#D55E00'>died</b>")
            rows.append(f"<tr><td>{escape(self.player_name(fate.player))} {fate.place} {fate.slot + 1}</td>"
                        f"<td>{escape(fate.card.name)}</td><td>{verdict}</td>"
                        f"<td style='color:#555'>{escape(fate.reason)}</td></tr>")
        reached = {(f.player, f.place, f.slot) for f in strike.trees}
        for p in range(n):  # the trees it did not reach, so the whole table is accounted for
            for place, trees in (("understory", state.understory(p)), ("canopy", state.canopy(p))):
                for slot, tree in enumerate(trees):
                    if tree is not None and (p, place, slot) not in reached:
                        rows.append(f"<tr><td>{escape(self.player_name(p))} {place} {slot + 1}</td>"
                                    f"<td>{escape(tree.name)}</td><td>not struck</td><td></td></tr>")
        table = ("<table cellpadding='2' style='border-collapse:collapse;font-size:12px'>" + "".join(rows)
                 + "</table>") if rows else "<div>No tree stood where it struck.</div>"
        return (f"<div class='treegames-mt-strike' style='font-size:13px;margin-top:4px'>{head} "
                "<b>What it did to each tree</b> (its verdict, and why: the tree's strength or range):"
                f"{table}</div>")

    def log_label(self, index: int) -> str:
        """Event log entries: chance steps in the engine's public words (a draw never names its card)."""
        t = self.timeline
        before, after = t.states[index - 1], t.states[index]
        if isinstance(after, SeatState):
            return f"{index}. {seat_moment_words(before, after)}"
        if before.current_player == core.CHANCE:
            return f"{index}. {after.last_event}"
        return super().log_label(index)

    # ------------------------------------------------------------ at a shared table (treegames.ui.tables)

    def state_from_view(self, table_view) -> SeatState:
        """One moment of a shared table as this page's seat sees it (the SharedTable session asks for it)."""
        moment = SeatState(self.game, table_view)
        self.cover = CoverKeeper(() if moment.seat is None else (moment.seat,))  # one person: never covered
        if self.teacher_box.value:
            self.teacher_box.value = False
        return moment

    def _update_save(self, state) -> None:
        """Save / Open: at a shared table the game is kept by the table (a seat's page holds only its view)."""
        if not isinstance(state, SeatState):
            super()._update_save(state)
            return
        if self.tabs.selected_index != self.save_tab:
            return
        self.save_link.value = ("<i>At a shared table the game is kept by the table itself: this page holds only "
                                "what your seat may see, so there is no game file to download here.</i>")
        self.picture_link.value = download_link(self.picture_svg(), f"mighty-trees-table-v{state.version}.svg",
                                                "Save picture", mime="image/svg+xml", icon="picture")

    # ------------------------------------------------------------ clicks

    def play_at(self, place: str) -> bool:
        """A click (or Enter) on a place: lift the cover, choose, play, preview an attack, or say why not."""
        s = self.state
        tag = tag_of(place)
        viewer = self.viewer(s)
        if tag == ("cover",):
            if viewer in self.cover.people and not self.can_see_hand(s, viewer):
                self.cover.reveal(viewer)
                self.refresh()
                self.say(f"{self.player_name(viewer)}'s hand is showing.")
                return True
            self.say("The hand is already showing." if viewer in self.cover.people else
                      "Only a person's own hand can be shown.")
            return False
        if s.is_terminal() or s.current_player == core.CHANCE or not self.is_human_turn():
            return super().play_at(place)
        if not self.can_see_hand(s, viewer):
            self.say(f"First pass the screen to {self.player_name(viewer)} and press the cover to show the hand.")
            return False
        if tag is None:
            self.say(f"There is nothing called {escape(place)} on the table.", error=True)
            return False
        result = ClickPlanner(s, self.selected).click(tag)
        return self._follow(result, tag)

    def _follow(self, result, tag) -> bool:
        """Do what a click meant."""
        if result.outcome is Outcome.SELECT:
            self.selected = tag
            self.pending = None
            self._hide_preview()
            self.board_view.redraw()
            self.say(f"Chosen: <b>{escape(place_of(tag))}</b>. Now click where it goes (outlined in purple). "
                      f"<br><small>{escape(result.message)}</small>")
            return True
        if result.outcome is Outcome.DESELECT:
            self.selected = None
            self.board_view.redraw()
            self.say("Choice cleared.")
            return True
        if result.outcome is Outcome.PREVIEW:
            self.pending = result.action
            self.preview.value = panel(f"<b>Attack?</b> {escape(result.message)}")
            self.preview_box.layout.display = None
            self.say("Check the combat sum, then press Confirm attack (or Cancel).")
            return True
        if result.outcome is Outcome.APPLY:
            self.selected = None
            return self.play(result.action)
        if result.outcome is Outcome.REFUSE:
            self.say(f"Not allowed: {escape(result.message)}", error=True)
            return False
        self.say("Choose one of your outlined cards or trees first.")
        return False

    def confirm_attack(self) -> bool:
        """Confirm the previewed attack."""
        action, self.pending = self.pending, None
        self._hide_preview()
        if action is None:
            self.say("There is no attack to confirm.")
            return False
        self.selected = None
        return self.play(action)

    def cancel_attack(self) -> None:
        """Drop the previewed attack."""
        self.pending = None
        self.selected = None
        self._hide_preview()
        self.board_view.redraw()
        self.say("Attack cancelled: nothing changed.")

    def play_listed(self) -> bool:
        """Play the action chosen in the Actions tab."""
        action = self.action_list.value
        if action is None:
            self.say("Choose an action in the list first.")
            return False
        if not self.is_human_turn():
            self.say("The list is for the person whose turn it is.")
            return False
        self.selected = None
        return self.play(action)

def seat_moment_words(before, after: SeatState) -> str:
    """The table's log sentences between two moments this page saw (this seat's words), newest last."""
    since = before.version if isinstance(before, SeatState) else -1
    texts = [e.get("text", "") for e in after.table.log if since < e.get("version", 0) <= after.version]
    return " · ".join(texts[-3:]) or after.last_event or f"The table at version {after.version}."


def _boxes(scene) -> dict:
    """{tag: (x0, y0, x1, y1)} of the first polygon carrying each tag."""
    from ..scene import Polygons

    out: dict = {}
    for op in scene.ops:
        if isinstance(op, Polygons) and op.tags:
            mins, maxs = op.points.min(axis=1), op.points.max(axis=1)
            for i, tag in enumerate(op.tags):
                if isinstance(tag, tuple) and tag and tag not in out:
                    out[tag] = (float(mins[i, 0]), float(mins[i, 1]), float(maxs[i, 0]), float(maxs[i, 1]))
    return out
