"""Python launch code: the SGLang launches a Python module starts, read with the standard library's
:mod:`ast` (Python's own parser).

The file is parsed, never imported or run. What counts as a launch (each callee is resolved through
the module's imports and aliases — ``import sglang as sgl``, ``from subprocess import Popen as P``,
``P = subprocess.Popen`` — so only these calls count, and a class of the file's own named ``Engine``
does not):

* an argv list or tuple given to ``subprocess.Popen/run/call/check_call/check_output``,
  ``os.execv*``/``os.execl*``, ``os.spawn*``, ``os.posix_spawn[p]`` or
  ``asyncio.create_subprocess_exec``; a command string given with ``shell=True``, to ``os.system``,
  ``os.popen``, ``subprocess.getoutput`` or ``asyncio.create_subprocess_shell`` (cut into simple
  commands with shell quoting), or through ``shlex.split(...)``, ``str.split()`` or
  ``" ".join(argv)``. ``sys.executable`` stands for a Python interpreter;
* ``sglang.Engine(...)``, ``ServerArgs(...)`` (``sglang.srt.server_args``; its first positional
  argument is ``model_path``) and ``sgl.Runtime(...)``: keyword names are ``ServerArgs`` fields,
  values are Python values (so the string ``"false"`` is true, as SGLang's own check sees it);
  ``**BASE`` of a resolvable dict adds its keys (an explicit keyword wins);
* ``sglang.utils.launch_server_cmd(command)``, which splits its string its own way
  (``execute_shell_command``: every backslash becomes a blank, the string is split on whitespace, and
  leading ``KEY=VALUE`` words are environment);
* ``sglang.test.test_utils.popen_launch_server(model, base_url, ..., other_args=[...])``, which
  runs ``sglang serve --model-path MODEL *other_args``.
* a call of a module function that starts the command it is given (``def _run(cmd): subprocess.Popen(cmd)``)
  is read as that function's call with the command passed here, located here — also one that hands
  it on, changed or not, to such a function defined anywhere in the module (``def f0(c): if x: c =
  c + [...]`` then ``f1(c)``: a launch per path);
* a call of a function imported from another module of the repository (``from scripts.run_x import
  _execute_train``) that may launch — it, or a function it calls, calls one of the callables above
  (:mod:`.launchers`) — is that function's launches, run with the arguments this call gives it and
  located here (miles' model scripts); a function already being read for such a call starts nothing
  again;
* miles' ``execute_train(train_args=...)``, which runs ``python3 train.py TRAIN_ARGS`` in a shell: a
  launch of the slime/miles trainer even when its arguments are partly or wholly unknown.

Values: literals (with implicit concatenation, f-strings, ``"...".format(...)`` and ``"..." % (...)``
whose parts are known), names bound at module level or in the enclosing function before the call,
class attributes (``cls.X``, ``self.X``, ``Class.X``, along the bases), ``self.X`` bound only by
``self.X = …`` in ``__init__``, ``cls.X = …`` earlier in the same method, a module global or ``self.X``
that another function or method sets (``global CMD``; ``self.cmd += […]`` outside ``__init__``: a path
on which it has run and one on which it has not, :mod:`.setters`), ``+`` of lists, tuples and
strings, ``+=``, ``.append``, ``.extend``, ``.insert``, ``.pop``, ``x[i] = …``, ``del x[i]``, ``**`` of
a dict literal or ``dict(...)``, and what a function or method returns when every path of it ends in
``return``, with the call's arguments bound to its parameters (positional, keywords, defaults, a
``*x``/``**x`` of known items; remembered per argument values, at most ``limits.MAX_ARG_SETS`` sets per
function, chains of calls at most ``limits.MAX_CALL_DEPTH`` deep, a recursion (direct or mutual)
unknown, but for a list each level extends: the outermost call's words, then words not known). A
module function that its calls give different constants (``go(det=True)`` and ``go()``) starts one
launch per distinct set of them (at most ``limits.MAX_CALL_VARIANTS``), each located at its first
call and decided with its parameters known. A constant given this way may also be a ``@dataclass`` of the
module built at the call (``launch(Args(true_on_policy=True))``, ``launch(Args())``): its fields are
the values given, else the field's defaults (:mod:`.dataclass_values`); built into a variable just
before the call, fields set to constants right after it count too, and those set in one ``if`` there
give a set per branch, the branch its path (``a = Args(); if os.environ.get("DET"): a.det = True;
launch(a)``). A launch in each of several calls, or whose command a function called more than once
builds (``run(build(True))`` in one branch, ``run(build(False))`` in the other), shows the tests of
the ``if``s around its call as its path. A call in a method is a
launch for its class and, separately, for each subclass that inherits the method (with that
subclass's attributes, overrides and ``super()`` chain); a class that inherits a launching method
from a class of another module is a launch of its own file, located at its name. Imported names
are read from the files of the same repository (:mod:`.modules`: never imported or run; bounded and
cached per run), so a value keeps the origin where it is written. Anything else — other calls,
modules outside the repository, loop variables, a module list that some function mutates in place (one that
functions only ``.append``/``.extend``/``+=``: its words, then words not known) —
is unknown, never guessed.

Compound statements (``if``, ``for``, ``while``, ``try``, ``with``, ``match``) are followed along
each of their paths. The branches of an ``if``/``elif``/``else`` or ``match`` (a test or case the file
decides is one path: a constant, a known parameter, a literal pattern of a known subject), a
conditional expression, a ``try`` body completing and each of its handlers ("`import x` raises
ImportError"), and a function's early ``return`` statements keep a value per path (:mod:`.paths`): a
statement that reads such a value runs once per path, and a launch built from it is one launch per
path, each with the conditions that lead there ("`args.true_on_policy` is true"), at most
``limits.MAX_PATH_VARIANTS`` of them. Past that many, a statement's values are computed again where
they are read, and the launch keeps apart only the decisions that change what the rules decide
(deterministic inference, the attention backends, the model, the parallel sizes), the others merged:
what their paths share known, the rest unknown. A ``for`` over a known list of at most that many known
items runs once per item. Elsewhere — loops, and values nested past ``limits.MAX_PATH_NESTING`` — the
paths are joined where they meet again: what every path agrees on stays known, with its origin. A list keeps the words known
before the loop; what a round may add becomes an unknown tail of any length; a word replaced or
removed on some path makes the list unknown from there, and a change that cannot be placed
(``.remove(x)``, a whole new list) makes it unknown as a whole. A dict key set on some path has an
unknown value; a name bound to different values on different paths is unknown. A path that ends in
``return`` or ``raise`` does not reach what follows (nor code after a decided branch that returns) —
nor does one that calls ``sys.exit()`` and its kin, a module function that always ends so (``def
die(msg): print(msg); sys.exit(1)``) or argparse's ``parser.error(...)`` (:mod:`.enders`); when the
other branch of an ``if`` ends so (``if DET: sys.exit(…)``), every path after it has taken that
decision, and the same test later is decided (while the names it reads keep their values; in a
module function called only after such an ``if`` of the module, too); a
``try`` handler (and a ``with contextlib.suppress(...)`` body) may start after any statement of the
body (an ``ImportError`` handler only before an import or a call). A function or class defined under a
test the file decides against, and the side of a decided conditional expression not taken, start
nothing. Loops are run until the
join settles (loops nested more than three deep are not followed: what they change is unknown).

Calls inside ``with pytest.raises(...)`` / ``with self.assertRaises(...)`` are tests that expect
SGLang to refuse the configuration: they are not launches.

Every resolved character keeps the offset of the source character it came from, so a diagnostic
points at — and a fix edits — the word inside the string literal where it was written (an escape
sequence such as ``\\n`` is not exact, so no fix edits it).

Target GPUs: Modal's ``gpu=`` on ``@app.function(...)``, ``@app.cls(...)`` or ``@app.server(...)``
(``app`` bound to ``modal.App(...)``/``modal.Stub(...)``) applies to the launches inside that
function or class and in the module functions it calls; ``"H100:8"`` names ``H100``, ``"H100!"``
and ``"B200+"`` are kept as written, a list of fallbacks gives several candidates. The ``image=``
there (or of the ``modal.App``), a ``modal.Image`` chain whose calls name ``lmsysorg/sglang:TAG``,
becomes the launch's image, from which the release and torch's CUDA build are read. SGLang's CI
registration of a test file (``register_cuda_ci(…, runner_config="4-gpu-b200")`` or a suite named
``…-4-gpu-b200``) declares the file's GPU when the catalog knows the runner's GPU word exactly
(:mod:`.ci`, :mod:`linter.sglang.ci`).

A file that holds none of the call names above as a word, no class with a base (which may
inherit a launch from another module) and no call of an imported function that may launch, cannot
start a launch and is not parsed.

The analysis is imported only inside :func:`extract`, so linting a tree without Python launch files
never pays for it. ``ast`` positions are UTF-8 byte columns; :mod:`.positions` turns them into the
character offsets every span uses, and :mod:`.literals` reads the pieces ``ast`` does not locate
(each literal of an implicit concatenation, the text and fields of an f-string).

The package, by job: :mod:`.values` (what a value is, and the join of two paths' values),
:mod:`.strings` (literals, formatting), :mod:`.syntax` and :mod:`.scopes` (the module's structure,
one walk of the ``ast``), :mod:`.frames`, :mod:`.interpret` and :mod:`.statements` (running the code on
frames), :mod:`.paths` (values along undecided paths), :mod:`.evaluate` (expressions),
:mod:`.launches` (which calls are launches), :mod:`.modal` (Modal declarations), :mod:`.ci` (SGLang CI
registrations), :mod:`.modules` (imports resolved to files of the repository), :mod:`.analysis` (the
parts wired together).
"""

from __future__ import annotations

import re

from linter import limits
from linter.extract.python.lexical import scan
from linter.extract.python.names import CALL_NAME_RE
from linter.extract.python.parsing import parse
from linter.extract.python.strings import decode_literal, split_whitespace
from linter.launch import Extraction
from linter.source import SourceFile, Span
from linter.workspace import Workspace

_SUBCLASS_RE = re.compile(r"^[ \t]*class[ \t]+\w+[ \t]*\([ \t]*[A-Za-z_]", re.MULTILINE)
"""A class with a base: it may inherit a launch from a class of another module."""


@limits.budgeted
def extract(source: SourceFile, ws: Workspace | None) -> Extraction:
    """The launches of a Python file. A syntax error is reported at the parser's problem position.
    ``ws`` (the run's workspace) lets imports resolve to other files of the repository; None: the
    file alone."""
    # The early exit. No call the extractor recognises can be written without one of the names of
    # CALL_NAMES in the code (an alias is bound from the real name), so a file without one (as a
    # word, then as a name in code: not in a string or a comment) holds no launch and the parse and
    # analysis are not needed — unless one of its classes inherits a launch from another module, or
    # it calls a function imported from one that may launch (:mod:`.launchers`, asked only then).
    # Its comments are listed only when a directive may be there.
    inherits = ws is not None and _SUBCLASS_RE.search(source.text) is not None
    if not inherits and ws is not None and not CALL_NAME_RE.search(source.text):
        inherits = _calls_launcher(source, ws)
    if not CALL_NAME_RE.search(source.text) and not inherits:
        return Extraction(comments=_scan(source)[0] if "lint-configs" in source.text else None)
    comments, named = _scan(source)
    if not named and not inherits and (ws is None or not _calls_launcher(source, ws)):
        return Extraction(comments=comments)
    result = Extraction()
    parsed = parse(source, result)
    if parsed is None:
        return result
    result.comments = comments
    module, positions = parsed
    from linter.extract.python.analysis import Analysis

    try:
        Analysis(source, module, positions, result, ws=ws).run()
    except limits.LimitExceeded as exc:  # the file's steps are spent: the launches found so far stay
        limits.budget().stopped(exc, Span(source, 0, 0), "the rest of the module is not checked")
    return result


def _calls_launcher(source: SourceFile, ws: Workspace) -> bool:
    from linter.extract.python.launchers import calls_launcher

    return calls_launcher(source, ws)


def _scan(source: SourceFile) -> tuple[list[Span] | None, bool]:
    """(spans of every ``#`` comment, exactly; whether a name of :data:`CALL_NAMES` is written as
    code), as Python's tokenizer reads the text (:mod:`.lexical`). When the tokenizer would fail:
    (None, True)."""
    got = scan(source.text, CALL_NAME_RE)
    if got is None:
        return None, True
    comments, named = got
    return [Span(source, s, e) for s, e in comments], named


__all__ = ["decode_literal", "extract", "split_whitespace"]
