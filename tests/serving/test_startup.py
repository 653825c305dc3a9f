"""The class server starts without building jsonschema's IRI grammar, and an IRI check still answers the same."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

IRI_CASES = [("iri", "http://example.com/\u00e4"), ("iri", "no scheme here"), ("iri", "urn:isbn:0451450523"),
             ("iri-reference", "//x y"), ("iri-reference", "../a/b?c#d"), ("iri", "mailto:a@example.org")]
"""Valid and invalid strings for the two formats the grammar checks."""

ANSWERS = f"""
import json, jsonschema
checker = jsonschema.FormatChecker()
print(json.dumps([checker.conforms(value, kind) for kind, value in {IRI_CASES!r}]))
"""
"""A program printing jsonschema's answer for every case."""


def run(code: str) -> str:
    """What a fresh Python prints running ``code``."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120).stdout


def test_starting_the_class_server_leaves_the_iri_grammar_unbuilt():
    """Importing the server (Voila, jupyter_server, jsonschema and all) does not import rfc3987_syntax's grammar."""
    pytest.importorskip("rfc3987_syntax")
    out = run("import sys, treegames.serving.__main__, jsonschema\n"
              "from treegames.serving.startup import is_grammar_built\n"
              "print('jsonschema' in sys.modules, 'voila.app' in sys.modules, is_grammar_built(),\n"
              "      'rfc3987_syntax.syntax_helpers' in sys.modules)")
    assert out.split() == ["True", "True", "False", "False"]


def test_an_iri_check_after_the_deferral_answers_as_the_real_module_does():
    """jsonschema's 'iri' and 'iri-reference' checks give the same answers with the stand-in, which then loads the real module."""
    pytest.importorskip("rfc3987_syntax")
    real = json.loads(run(ANSWERS))
    deferred = run("import treegames.serving\n" + ANSWERS + "\nfrom treegames.serving.startup import is_grammar_built\n"
                   "print(is_grammar_built())").split("\n")
    assert json.loads(deferred[0]) == real
    assert real == [True, False, True, False, True, True]
    assert deferred[1] == "True"


def test_the_deferral_changes_nothing_once_the_real_module_is_imported():
    """Deferring after the real module is loaded leaves it in place."""
    pytest.importorskip("rfc3987_syntax")
    out = run("import rfc3987_syntax, sys\nfrom treegames.serving.startup import defer_iri_grammar, is_grammar_built\n"
              "defer_iri_grammar()\nprint(sys.modules['rfc3987_syntax'] is rfc3987_syntax, is_grammar_built())")
    assert out.split() == ["True", "True"]


def test_a_students_server_on_the_hub_starts_without_the_iri_grammar():
    """The spawner's command (python -m treegames.serving.singleuser) reaches JupyterHub's single-user server unbuilt."""
    pytest.importorskip("rfc3987_syntax")
    pytest.importorskip("jupyterhub")
    out = run("import sys, runpy\nsys.argv = ['singleuser', '--help']\n"
              "try:\n    runpy.run_module('treegames.serving.singleuser', run_name='__main__')\n"
              "except SystemExit:\n    pass\n"
              "from treegames.serving.startup import is_grammar_built\n"
              "print('STARTED', 'jupyterhub.singleuser' in sys.modules, 'jsonschema' in sys.modules, is_grammar_built())")
    assert out.split()[-4:] == ["STARTED", "True", "True", "False"]


def test_the_stand_in_still_gives_the_real_modules_names_and_submodules():
    """After the deferral, a submodule import and any other name read from the module work as before."""
    pytest.importorskip("rfc3987_syntax")
    out = run("import treegames.serving\nimport rfc3987_syntax.syntax_helpers as helpers\n"
              "from rfc3987_syntax import parse\nimport rfc3987_syntax\n"
              "print(callable(parse), helpers.parse is parse, rfc3987_syntax.is_valid_syntax('iri', 'http://a.b/'))")
    assert out.split() == ["True", "True", "True"]


def test_without_its_parser_the_check_is_left_out_as_jsonschema_alone_would():
    """With lark unimportable, jsonschema registers no IRI check, deferred or not (never a check that fails later)."""
    pytest.importorskip("rfc3987_syntax")
    probe = "import jsonschema\nprint('iri' in jsonschema.FormatChecker().checkers)"
    blocked = "import sys\nsys.modules['lark'] = None\n"
    assert run(blocked + probe).split() == ["False"]
    assert run(blocked + "import treegames.serving\n" + probe).split() == ["False"]
    assert run("import treegames.serving\n" + probe).split() == ["True"]
