"""Tournament results in words and as an HTML table (every number computed by treegames.lab)."""

from __future__ import annotations

import html

from ...lab import Design, FirstMoverTest, Results, Tally, records_csv, shared_chance, stats, summary_csv
from .. import palette, saving

__all__ = ["p_text", "p_is", "results_table_html", "findings_html", "first_mover_text", "seat_tests_html",
           "games_table_html", "csv_links_html"]

CELL = "padding:2px 6px;border-bottom:1px solid #E4E4E4;white-space:nowrap"
HEAD = f"{CELL};text-align:left;background:#F3F3F3"


def p_text(p: float) -> str:
    """A p-value for reading: '0.0214', or '< 0.0001' when tiny."""
    return "< 0.0001" if p < 0.0001 else f"{p:.4f}"


def p_is(p: float) -> str:
    """'p = 0.0214', or 'p < 0.0001' when tiny."""
    text = p_text(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def _share_cell(s: stats.Share) -> str:
    """'52.0%' with its interval underneath in small type."""
    if not s.n:
        return "–"
    return (f"<b>{100 * s.value:.1f}%</b><br><span style='font-size:11px;color:{palette.MUTED_INK}'>"
            f"{100 * s.low:.1f}–{100 * s.high:.1f}</span>")


def _row(tally: Tally) -> str:
    """One table row (a bot in every seat: no shares, since its games decide nothing about it)."""
    mean, sd = tally.mean_score()
    label = html.escape(tally.label) + (f" ({tally.seats} seats)" if tally.seats > 1 else "")
    if tally.every_seat:
        shares = [f"<span style='color:{palette.MUTED_INK}'>every seat: no interval</span>", "", ""]
    else:
        shares = [_share_cell(tally.win), _share_cell(tally.tie), _share_cell(tally.loss)]
    cells = [label, str(tally.games), str(tally.wins), str(tally.ties), str(tally.losses), *shares,
             f"{mean:.1f} ± {sd:.1f}" if tally.games else "–"]
    return "<tr>" + "".join(f"<td style='{CELL}'>{c}</td>" for c in cells) + "</tr>"


def results_table_html(results: Results) -> str:
    """Per bot, per seat and for the first mover: counts, shares with 95% Wilson intervals, mean score."""
    head = ["result row", "games", "wins", "ties", "losses", "win", "tie", "loss", "score"]
    parts = ["<div class='treegames-lab-table' tabindex='0' role='region' aria-label='Results table' style='overflow-x:auto;max-width:100%'>",
             "<table style='border-collapse:collapse;font-size:13px'>",
             "<tr>" + "".join(f"<th style='{HEAD}'>{h}</th>" for h in head) + "</tr>"]
    groups = [("Bots (one outcome per game, whichever of its seats won)", list(results.by_bot.values())),
              ("Seats", results.by_seat),
              ("Who moved first", [results.first_mover, results.later_movers])]
    for title, tallies in groups:
        parts.append(f"<tr><td colspan='{len(head)}' style='{CELL};font-weight:bold;padding-top:6px'>"
                     f"{html.escape(title)}</td></tr>")
        parts += [_row(t) for t in tallies]
    parts.append("</table>")
    parts.append(f"<div style='font-size:11px;color:{palette.MUTED_INK}'>Under each share: its 95% Wilson "
                 "interval. Score: mean ± standard deviation (a bot in several seats: its best seat). A bot "
                 "in every seat wins every game somebody wins, so its share says nothing and has no "
                 "interval.</div></div>")
    return "".join(parts)


def findings_html(results: Results) -> str:
    """The headline sentences: the first mover, the paired comparison, ties, game lengths."""
    n = results.games
    if not n:
        return "<p>No games played yet.</p>"
    items = [f"<b>First mover</b>: won {results.first_mover.win.text()} of {n} games. "
             + first_mover_text(results.first_mover_test(), results)]
    paired = results.paired()
    if paired is not None and paired.pairs:
        items.append(
            f"<b>Paired comparison</b> ({paired.pairs} pairs of games with the seats swapped and "
            f"{html.escape(shared_chance(results.spec.game))}): {html.escape(paired.first)} did better in {paired.first_better}, "
            f"{html.escape(paired.second)} in {paired.second_better}, even {paired.even}; "
            f"sign test {p_is(paired.p_value())}."
        )
    tied = results.tied_games()
    if tied:
        items.append(f"<b>Ties</b>: {stats.share(tied, n).text()} of games had no single winner.")
    lengths = results.lengths()
    mean, _sd = stats.mean_and_sd(lengths)
    items.append(f"<b>Length</b>: {mean:.0f} player moves per game on average "
                 f"({min(lengths)}–{max(lengths)}).")
    return "<ul style='margin:4px 0;padding-left:20px;font-size:13px;line-height:1.5'>" + "".join(
        f"<li>{i}</li>" for i in items) + "</ul>" + seat_tests_html(results)


def first_mover_text(test: FirstMoverTest, results: Results) -> str:
    """What the first-mover test of this design says, and why this test (or why none)."""
    fair = f"{100 * float(test.fair):.0f}%"
    if test.design is Design.SAME_BOT:
        if not test.trials:
            return "No game had a single winner yet, so there is nothing to test."
        return (f"The same bot sits in every seat, so moving first is the only difference between the seats: it "
                f"won {stats.share(test.wins, test.trials).text()} of the {test.trials} games with a single winner; "
                f"the exact binomial test of <i>a fair share</i> ({fair}) gives {p_is(test.p_value)}.")
    if len(set(results.spec.bots)) == 1:
        why_pairs = ("Both games of a pair share the chance seed, so the same seat moves first in both: they are not "
                     "two independent games (two identical bots may even play the same game twice), so the lab "
                     "counts pairs, and only pairs that went the same seat's way in both games say anything about "
                     "moving first")
    else:
        why_pairs = ("Both games of a pair share the chance seed, so the same seat moves first in both while the "
                     "bots swap; a pair split one game each could be the stronger bot winning twice, so only pairs "
                     "that went the same seat's way in both games say anything about moving first")
    if test.design is Design.PAIRS:
        if not test.trials:
            return (f"{why_pairs}, and none of the {test.even} pairs did: every pair was split, so these games "
                    "cannot tell whether moving first helps (no p-value). For that, seat the same bot in every "
                    "seat.")
        return (f"{why_pairs}: the first mover did better in both games of {test.wins} pairs, the second mover in "
                f"{test.losses}, and {test.even} were split; the sign test of those {test.trials} pairs (McNemar's "
                f"test) gives {p_is(test.p_value)}.")
    if test.design is Design.BY_BOT:
        (a, b), (c, d) = test.table
        bot = html.escape(test.bot)
        if test.p_value is None:
            return (f"To separate moving first from bot strength, {bot}'s games are compared by who moved first, "
                    f"but {bot} has not yet both moved first and second in a decided game (no p-value).")
        first, second = stats.share(a, a + b), stats.share(c, c + d)
        return (f"The bots differ, so the games are compared by who moved first: {bot} won {first.text()} of "
                f"{a + b} decided games when it moved first and {second.text()} of {c + d} when it moved second; "
                f"Fisher's exact test of <i>moving first makes no difference</i> gives {p_is(test.p_value)}.")
    return ("No first-mover test for this design: with more than two players, rotated seats share the chance "
            "seed within a block, and different bots mix moving first with bot strength. For a first-mover test, "
            "seat the same bot in every seat and choose Fixed seats.")


def seat_tests_html(results: Results) -> str:
    """Every seat and the first mover against a fair share, raw and Holm-adjusted p (same bot, fixed seats)."""
    tests = results.seat_tests()
    if not tests or not tests[0].trials:
        return ""
    head = ["seat", "wins of single-winner games", "exact p", "Holm-adjusted p"]
    parts = ["<div tabindex='0' role='region' aria-label='Tests of each seat' style='overflow-x:auto;font-size:13px'><b>Many tests at once.</b> "
             f"{len(tests)} p-values, each against a fair share of {100 * float(tests[0].fair):.0f}%. Even "
             f"with no advantage anywhere, each test comes out below 0.05 one time in twenty, so at least one of "
             f"the {len(tests)} can do so up to {min(100, 5 * len(tests))}% of the time ({len(tests)} × 5%). "
             "Holm's adjustment multiplies the smallest p by the number of tests, the next by one less, and so "
             "on; below 0.05 <i>after</i> adjustment keeps the chance of any false alarm at 5%.",
             "<table style='border-collapse:collapse;font-size:13px'><tr>"
             + "".join(f"<th style='{HEAD}'>{h}</th>" for h in head) + "</tr>"]
    for t in tests:
        cells = [html.escape(t.label), t.share.text(), p_text(t.p_value), p_text(t.holm)]
        parts.append("<tr>" + "".join(f"<td style='{CELL}'>{c}</td>" for c in cells) + "</tr>")
    return "".join(parts) + "</table></div>"


def games_table_html(results: Results, start: int, count: int = 10) -> str:
    """Rows ``start`` .. ``start + count - 1`` of the played games: seats, first mover, scores, winner."""
    labels = results.seat_labels
    head = ["game", *labels, "first", "scores", "winner", "moves"]
    rows = results.records[start:start + count]
    parts = ["<div tabindex='0' role='region' aria-label='The games' style='overflow-x:auto;max-width:100%'><table style='border-collapse:collapse;font-size:12px'>",
             "<tr>" + "".join(f"<th style='{HEAD}'>{html.escape(h)}</th>" for h in head) + "</tr>"]
    for r in rows:
        winner = " & ".join(labels[w] for w in r.winners) or "none (draw)"
        cells = [str(r.index + 1), *r.seats, labels[r.first] if r.first >= 0 else "–",
                 "–".join(map(str, r.scores)), winner, str(r.moves)]
        parts.append("<tr>" + "".join(f"<td style='{CELL}'>{html.escape(c)}</td>" for c in cells) + "</tr>")
    parts.append("</table></div>")
    return "".join(parts)


def csv_links_html(results: Results) -> str:
    """Download links for the games CSV and the summary CSV."""
    if not results.games:
        return ""
    stem = f"{results.spec.game}-tournament-seed{results.spec.seed}"
    return ("<div style='font-size:13px'>Export: "
            + saving.download_link(records_csv(results.spec, results.records), f"{stem}-games.csv", "Games (CSV)",
                                   "text/csv")
            + " " + saving.download_link(summary_csv(results), f"{stem}-summary.csv", "Summary (CSV)", "text/csv")
            + "</div>")
