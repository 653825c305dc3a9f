"""What the class server need not pay for when it starts: jsonschema's IRI grammar, built on first use.

jsonschema loads its format checkers when jupyter_server, Voila and nbformat import it, and with the
``format-nongpl`` extra that Jupyter asks for, this imports ``rfc3987_syntax``, which compiles its IRI
grammar (dozens of Earley parsers) at import. On the 2-core development machine that took 1.7 of the
2.7 CPU-seconds of ``import voila.app``, for a check ("iri" and "iri-reference" strings) that none of the
schemas Jupyter validates uses. It is a known upstream cost (jsonschema issue 1428).

:func:`defer_iri_grammar` puts a stand-in module in its place before Voila is imported. Its
``is_valid_syntax`` imports the real module at its first call and answers from it, and so does any
other name read from it, so a schema that does check an IRI gets the same answer, a moment later.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import Any

GRAMMAR_MODULE = "rfc3987_syntax"
"""The module whose import compiles the IRI grammar."""
GRAMMAR_NEEDS = "lark"
"""The parser package it imports (without it the real import fails, and jsonschema leaves the check out)."""


class DeferredModule(types.ModuleType):
    """A stand-in for a module that imports the real one when a name is first used from it."""

    def is_valid_syntax(self, *args: Any, **kwargs: Any) -> bool:
        """The real module's ``is_valid_syntax`` (importing it first): what jsonschema calls for an IRI.

        Defined here, not left to ``__getattr__``, so that jsonschema's ``from rfc3987_syntax import
        is_valid_syntax`` at its own import does not build the grammar.
        """
        return self.real().is_valid_syntax(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        """Any other name, from the real module (importing it first)."""
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.real(), name)

    def real(self) -> types.ModuleType:
        """The real module, imported now if it is not yet (it then replaces this stand-in in ``sys.modules``)."""
        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        return importlib.import_module(self.__name__)


def defer_iri_grammar() -> None:
    """Let ``import rfc3987_syntax`` give a stand-in that imports the real module when first used.

    Nothing changes if the module is already imported, or not installed or without its parser (jsonschema
    then leaves the check out at import, as it would have).
    """
    spec = None if GRAMMAR_MODULE in sys.modules else importlib.util.find_spec(GRAMMAR_MODULE)
    if spec is None or importlib.util.find_spec(GRAMMAR_NEEDS) is None:
        return  # absent, or it would fail to import: jsonschema then skips the check at import, as without us
    stand_in = DeferredModule(GRAMMAR_MODULE)
    stand_in.__path__ = list(spec.submodule_search_locations or [])  # its submodules still import as before
    sys.modules[GRAMMAR_MODULE] = stand_in


def is_grammar_built() -> bool:
    """Whether the real IRI grammar module has been imported in this process."""
    module = sys.modules.get(GRAMMAR_MODULE)
    return module is not None and not isinstance(module, DeferredModule)
