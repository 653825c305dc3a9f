"""Serving the dashboards to a class: a checked kernel websocket, bounded kernels, one set of settings.

Nothing here is imported by the games or the views. The servers load these classes by name from their
configuration (``settings.py`` builds it for Voilà, Binder and JupyterHub); ``python -m treegames.serving``
starts the standalone Voilà server that ``make serve`` runs.

* ``frames``: checks a v1 kernel-websocket frame before any parser trusts it.
* ``connection``: the websocket connection class (v1 only, checked frames, per-visitor limits).
* ``kernels``: a kernel manager with a ceiling on running kernels.
* ``identity``: sets the ``_xsrf`` cookie on every page so a closed tab's beacon can stop its kernel.
* ``limits``: the numbers, in one place.
* ``startup``: jsonschema's IRI grammar built on first use, not at every server's start.
"""

from .startup import defer_iri_grammar

defer_iri_grammar()  # here, before any module of this package imports Voila or jupyter_server
