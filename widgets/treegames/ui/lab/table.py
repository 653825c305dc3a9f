"""Tournament results in words and as an HTML table (every number computed by treegames.lab)."""

from __future__ import annotations

import html

from ...lab import Results, Tally, records_csv, stats, summary_csv
from .. import palette, saving

__all__ = ["p_text", "p_is", "results_table_html", "findings_html", "games_table_html", "csv_links_html"]

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
    """One table row."""
    mean, sd = tally.mean_score()
    cells = [html.escape(tally.label), str(tally.games), str(tally.wins), str(tally.ties), str(tally.losses),
             _share_cell(tally.win), _share_cell(tally.tie), _share_cell(tally.loss),
             f"{mean:.1f} ± {sd:.1f}" if tally.games else "–"]
    return "<tr>" + "".join(f"<td style='{CELL}'>{c}</td>" for c in cells) + "</tr>"


def results_table_html(results: Results) -> str:
    """Per bot, per seat and for the first mover: counts, shares with 95% Wilson intervals, mean score."""
    head = ["", "games", "wins", "ties", "losses", "win", "tie", "loss", "score"]
    parts = ["<div class='treegames-lab-table' style='overflow-x:auto;max-width:100%'>",
             "<table style='border-collapse:collapse;font-size:13px'>",
             "<tr>" + "".join(f"<th style='{HEAD}'>{h}</th>" for h in head) + "</tr>"]
    groups = [("Bots (one row per seat taken)", list(results.by_bot.values())), ("Seats", results.by_seat),
              ("Who moved first", [results.first_mover, results.later_movers])]
    for title, tallies in groups:
        parts.append(f"<tr><td colspan='{len(head)}' style='{CELL};font-weight:bold;padding-top:6px'>"
                     f"{html.escape(title)}</td></tr>")
        parts += [_row(t) for t in tallies]
    parts.append("</table>")
    parts.append(f"<div style='font-size:11px;color:{palette.MUTED_INK}'>Under each share: its 95% Wilson "
                 "interval. Score: mean ± standard deviation.</div></div>")
    return "".join(parts)


def findings_html(results: Results) -> str:
    """The headline sentences: the first mover, the paired comparison, ties, game lengths."""
    n = results.games
    if not n:
        return "<p>No games played yet.</p>"
    items = []
    first = results.first_mover
    decisive = first.wins + first.losses
    fair = 1 / results.spec.players
    if results.spec.players == 2:
        items.append(
            f"<b>First mover</b>: won {first.win.text()} of {n} games. Leaving out the {first.ties} tied "
            f"game{'s' if first.ties != 1 else ''}, it won {first.wins} of {decisive}; the exact binomial "
            f"test of <i>no advantage</i> (a 50% chance) gives {p_is(first.p_value())}."
        )
    else:
        wins, single = results.first_mover_decisive()
        p = stats.binomial_test(wins, single, _fraction(fair))
        items.append(
            f"<b>First mover</b>: won {first.win.text()} of {n} games and {wins} of the {single} with a single "
            f"winner; a fair share would be {100 * fair:.0f}% (exact binomial test: {p_is(p)})."
        )
    paired = results.paired()
    if paired is not None and paired.pairs:
        items.append(
            f"<b>Paired comparison</b> ({paired.pairs} pairs of games with the same dice and cards, seats "
            f"swapped): {html.escape(paired.first)} did better in {paired.first_better}, "
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
        f"<li>{i}</li>" for i in items) + "</ul>"


def _fraction(value: float):
    """1/k as an exact Fraction for the fair share of k players."""
    from fractions import Fraction

    return Fraction(value).limit_denominator(10)


def games_table_html(results: Results, start: int, count: int = 10) -> str:
    """Rows ``start`` .. ``start + count - 1`` of the played games: seats, first mover, scores, winner."""
    labels = results.seat_labels
    head = ["game", *labels, "first", "scores", "winner", "moves"]
    rows = results.records[start:start + count]
    parts = ["<div style='overflow-x:auto;max-width:100%'><table style='border-collapse:collapse;font-size:12px'>",
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
