"""Another process with its own Authority on the same store, as a second class-server worker or kernel host.

    python mover_proc.py STORE_URL

Prints {"ready": true}, then answers one JSON line per request line:

* {"op": "move", "token", "version", "action", "at"}: at wall-clock time ``at`` (if given), one move;
  {"ok": new version} or {"error": class name, "message"}.
* {"op": "script", "game", "seed", "seats", "choices"}: a new table with every person seat taken; each
  choice is an index into the mover's legal actions; {"log": the table's log}.
* {"op": "batch", "tokens": {seat: token}, "count", "seed", "acks"}: random legal moves by whichever seat
  is to move, each acknowledged one appended to the file ``acks`` (flushed) before the next; {"done": n}.
* {"op": "views", "tokens": [token, ...]}: {"views": each token's view as JSON (``TableView.to_json``)}.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time

from tables_helpers import TEACHER, full_table, roomy_limits

from treegames.service.store import open_store
from treegames.tables.authority import Authority
from treegames.tables.errors import TableError


def move(authority: Authority, request: dict) -> dict:
    """One move, at the asked moment."""
    if request.get("at"):  # a start barrier across processes: every racer moves at the agreed instant
        time.sleep(max(0.0, request["at"] - time.time()))
    try:
        view = authority.move(request["token"], request["version"], request["action"])
    except TableError as err:
        return {"error": type(err).__name__, "message": str(err)}
    return {"ok": view.version}


def script(authority: Authority, request: dict) -> dict:
    """A table played by choice indexes."""
    tickets = full_table(authority, request["game"], tuple(request["seats"]), seed=request["seed"])
    table_id = next(iter(tickets.values())).table_id
    for choice in request["choices"]:
        view = authority.view(next(iter(tickets.values())).token)
        if view.status != "playing":
            break
        ticket = tickets[view.current_player]
        view = authority.view(ticket.token)
        authority.move(ticket.token, view.version, view.legal[choice % len(view.legal)])
    return {"log": authority.log_of(table_id), "table_id": table_id}


def batch(authority: Authority, request: dict) -> dict:
    """Random legal moves, each acknowledgement written down before the next move."""
    tokens = {int(k): v for k, v in request["tokens"].items()}
    rng = random.Random(request["seed"])
    done = 0
    with open(request["acks"], "a") as acks:
        for _ in range(request["count"]):
            view = authority.view(next(iter(tokens.values())))
            if view.status != "playing":
                break
            token = tokens[view.current_player]
            view = authority.view(token)
            action = rng.choice(view.legal)
            after = authority.move(token, view.version, action)
            acks.write(json.dumps({"on": view.version, "version": after.version, "action": action}) + "\n")
            acks.flush()
            os.fsync(acks.fileno())
            done += 1
    return {"done": done}


def views(authority: Authority, request: dict) -> dict:
    """What each token's holder sees now."""
    return {"views": [authority.view(token).to_json() for token in request["tokens"]]}


def main(url: str) -> None:
    authority = Authority(open_store(url), limits=roomy_limits(), teacher_code=TEACHER)
    ops = {"move": move, "script": script, "batch": batch, "views": views}
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        print(json.dumps(ops[request["op"]](authority, request)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
