"""Class experiments: every student's rolls, draws and games pooled live, against the exact answer (no UI imports).

The experiments (:mod:`.kinds`): a class tournament of lab games split into blocks of seeds,
and each game's own experiments, which its plug-in brings (``GamePlugin.experiments``): the
Aspens Sun die for a stack configuration, with physical dice entered by students (kept apart
from simulated rolls), and a Mighty Trees Regroup ("at least one fitting tree in the next k cards").

Where it lives
--------------
On the SAME store as the shared tables (:mod:`treegames.service.store`): SQLite by
default, PostgreSQL at scale.  :mod:`.schema` registers the component "experiments"
and its migration steps; :class:`~.authority.ExperimentAuthority` is the only writer;
:mod:`.http` adds its routes under ``/treegames/api/experiments/`` to the same mount
(the same per-server key: only kernels call it); :mod:`.client` is what a kernel uses.

Rounds
------
A teacher opens a class experiment (a class code such as ``K7MPX``); it starts at round
1, open.  *Freeze* stops a round taking results (it can be opened again); *reset*
deletes the current round's results and opens it again; *new round* closes the
current round and opens the next one (the students keep their pseudonyms); *delete
round* removes one round's data.  Every change adds one to the class's version:
projectors and students long-poll on it (:meth:`~.authority.ExperimentAuthority.wait`).

Honesty
-------
* Every contributed outcome is validated against the experiment's domain before
  anything is stored: an outcome that does not exist, a negative or non-whole
  count, a batch over :data:`.kinds.MAX_BATCH` results, a die face the die does
  not have, a game outside the student's block -- refused with an
  :class:`~.errors.ExperimentError` (a ValueError), nothing counted.
* Each batch carries a batch id chosen by the student's kernel.  A batch id
  already stored is acknowledged again and not counted again, so a kernel killed
  mid-batch that re-sends after rejoining never counts anything twice, and every
  acknowledged batch counts exactly once.  Tournament games are also unique by
  game number.
* The client type of every batch is recorded (:class:`.kinds.Source`: class-server
  kernel, hub kernel, local kernel, physical entry): on a hub students can run code,
  so the service cannot know that a simulated roll was fair.  The teacher can show
  or exclude any one pseudonym's results (excluded results stay stored, out of the pool).
* Each student's generator is seeded from the operating system (:mod:`.rng`); only
  tests seed it deterministically.

Privacy and retention
---------------------
Nothing stores a real name: students get generated pseudonyms ("Red Fox",
:mod:`.pseudonyms`).  The store keeps only a hash of each student's token.  CSV
export carries pseudonyms only.  The teacher can delete a round, or a whole class.
A class's data is kept for ``Limits.retention_days`` (14 days by default,
:mod:`.limits`) after its last change, then deleted the next time an experiment is
opened (:meth:`~.authority.ExperimentAuthority.purge_expired`).
"""

from .authority import ExperimentAuthority, Status
from .errors import (
    BadCount,
    BadMember,
    BadOutcome,
    BadSettings,
    BatchConflict,
    BatchTooLarge,
    ClassFull,
    ExperimentError,
    NoSuchRound,
    NotTeacher,
    NotYourBlock,
    RoundNotOpen,
)
from .kinds import MAX_BATCH, TOURNAMENT, Domain, Field, Source, Tournament, domain_for, kind_label, kinds
from .limits import Limits
from .rng import student_rng

__all__ = [
    "ExperimentAuthority", "Status", "Limits", "student_rng",
    "MAX_BATCH", "TOURNAMENT", "Domain", "Field", "Source", "Tournament", "domain_for", "kind_label", "kinds",
    "BadCount", "BadMember", "BadOutcome", "BadSettings", "BatchConflict", "BatchTooLarge", "ClassFull",
    "ExperimentError", "NoSuchRound", "NotTeacher", "NotYourBlock", "RoundNotOpen",
]
