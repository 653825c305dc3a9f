"""One student's kernel, as a process: joins (or rejoins with a token), sends numbered batches, logs each ack.

    python student_proc.py URL KEY CODE TOKEN_OR_- SEED BATCHES LOGFILE [PAUSE]

Batch i holds ``domain.simulate(Random(f"{SEED}/{i}"), 10)`` and has batch id ``b{i}``, so a rejoining
process re-sends exactly the same batches.  Each acknowledgement is appended to LOGFILE as JSON.
"""

from __future__ import annotations

import json
import random
import sys
import time

from treegames.experiments import domain_for
from treegames.experiments.client import connect


def batch(domain, seed: str, i: int) -> dict:
    """The counts of batch ``i``."""
    return dict(domain.simulate(random.Random(f"{seed}/{i}"), 10))


def main(url, key, code, token, seed, batches, log, pause=0.0):
    client = connect(url, key)
    me = client.join(code=code, token=None if token == "-" else token)
    info = client.me(token=me["token"])
    domain = domain_for(info["kind"], info["settings"])
    with open(log, "a") as out:
        out.write(json.dumps({"token": me["token"], "pseudonym": me["pseudonym"]}) + "\n")
        out.flush()
        for i in range(int(batches)):
            ack = client.contribute(token=me["token"], batch_id=f"b{i}", counts=batch(domain, seed, i))
            out.write(json.dumps({"i": i, **ack}) + "\n")
            out.flush()
            time.sleep(float(pause))  # modelled time: the student's pace between batches (PAUSE), not a wait


if __name__ == "__main__":
    main(*sys.argv[1:])
