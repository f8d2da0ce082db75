"""Every budget lint-configs puts on its input, in one place.

A linter runs on files nobody vetted (a pre-commit hook on a pull request, a CI job), so each
input that can make work grow faster than its size has a limit here. The defaults are far above
what real deployment files hold (the "why" of each says what real files look like), so reaching
one means the file is generated, damaged or hostile. Reaching a limit is never a hang, an exhausted
memory or a traceback: the file gets an SGL004 ``input-too-large`` diagnostic naming the limit and
its value (:func:`exceeded`), and the part that reached it is treated as unknown.
"""

from __future__ import annotations

import contextlib
import contextvars

MAX_FILE_BYTES = 8 * 1024 * 1024
"""Largest file read (bytes). Launch files are a few KB; an 8 MiB file is data, not configuration.
Larger files are skipped with a reason, as binary files are."""

MAX_PARSED_CHARS = 400_000
"""Largest file parsed (characters), but for shell scripts (:data:`MAX_SHELL_CHARS`) and compose
files (``MAX_YAML_CHARS``). Launch files and compose files are a few KB, large Python modules a few
hundred KB. Parsing costs about 2 µs per character in ruamel's pure-Python YAML reader (which reads
what libyaml cannot) and 1 µs in Python, so the limit keeps every file under a second."""

MAX_SHELL_CHARS = 2_000_000
"""Largest shell script parsed (characters). Generated job scripts are long: a 20,000-line Slurm
script with 500 launches is 870,000 characters. The shell path is linear — tree-sitter-bash parses
in C and keeps about 30 bytes per character, the walk keeps origins as ranges — and a generated
script at the limit takes about a second of CPU and 100 MiB (``scripts/bench.py``'s shell row is
0.47 s and 55 MiB for 870,000 characters)."""

MAX_LINE_CHARS = 200_000
"""Longest line of a linted file or ``.env`` (characters). Real launch files keep lines under a few
hundred characters; a generated one-line compose file of 40 services is about 120 KB."""

MAX_YAML_NODES = 200_000
"""YAML nodes visited while resolving ``<<`` merge keys and aliases in one compose file. Merges are
memoised, so this counts distinct work; a compose file has at most a few thousand nodes. Nested
merges of aliases (``<<: [*m, *m, *m]`` 12 levels deep) would otherwise grow as 3**12."""

MAX_YAML_CHARS = 8_000_000
"""Largest compose file parsed (characters; other files stop at ``MAX_PARSED_CHARS``). libyaml reads
about 0.2 µs a character, so a generated compose file of 2,000 services (5.8 MB) is linted in about a
second; a file libyaml cannot read is read by ruamel's pure-Python reader only up to
``MAX_PARSED_CHARS``."""

MAX_NOTEBOOK_CHARS = 8 * MAX_PARSED_CHARS
"""Largest Jupyter notebook read (characters). A notebook's size is mostly its outputs, which are never
read (only code cells are), so it may be eight times a parsed file; its JSON reader has its own bounds
(``MAX_JSON_BYTES``, ``MAX_JSON_DEPTH``)."""

MAX_YAML_TREE_NODES = 300_000
"""Most nodes of one YAML document (mappings, sequences and scalars). A node costs about 400 bytes of
memory, so this keeps a tree near 120 MiB; a compose file of 2,000 services with 70 labels each (the
5.8 MB file of ``scripts/bench.py``) has 284,000 nodes."""

MAX_YAML_DEPTH = 200
"""Deepest YAML nesting followed (mappings and sequences). Compose files nest about 6 levels."""

MAX_DOC_DEPTH = 20
"""Deepest nesting of documentation blocks read inside one another (MyST directive bodies,
reStructuredText directives). Real pages nest tabs in a tab set in an admonition: 3 or 4 levels;
markdown-it's own nesting limit (``maxNesting``) is 20."""

MAX_EXPANSION_CHARS = 100_000
"""Longest value any expander builds (characters; a list counts its items): a variable of a shell
script, compose file, ``.env``, Dockerfile ``ARG``/``ENV`` or Kubernetes ``env``, a Python string or
list, a rendered Helm include. A value past it is unknown instead of being built: ``A=$B$B``
doubling 30 times would be 2 GB. Real values are a command line at most, a few KB."""

MAX_EXPANDED_CHARS = 4_000_000
"""Characters all the expansions of one file may produce together: each substitution of a variable
(``$A``, ``${A}``, ``$(A)``) counts the length of its value, each string or list an evaluator builds
from values (Python ``+``, ``.join``, ``.format``, ``%``, f-strings, ``*A``) its length, each Helm
include or block its output. A thousand variables each just under :data:`MAX_EXPANSION_CHARS`
would otherwise build 100 MB; a real file substitutes a few KB, a generated Slurm script of 2,000
launches each reading a 1 KB ``$ARGS`` 2 MB. Building costs a few ns and under 10 bytes a
character (a value's origins are shared runs), so the budget is at most a few tens of MB."""

MAX_EVAL_STEPS = 200_000
"""Steps the evaluators of one file may take together, a step being about 3–5 µs of work: a Python
expression evaluated or statement run; a Helm template node rendered, pipeline evaluated or
``range`` iteration run; a compose ``include`` or ``extends`` followed five; in a shell script, a node
walked again inside a loop or a ``bash -c`` string (a command or assignment twenty, a string parsed one
per 20 characters: code walked once is bounded by ``MAX_SHELL_CHARS``); a ``--config`` token judged
for a launch four. The budget keeps a file's evaluation near a second. Measured with
``scripts/measure_hostile.py --steps``: the repository's examples and tests, and every file of
THUDM/slime, volcengine/verl and sgl-project/ome, take at most 3,956; the benchmark's generated
20,000-line Slurm script 20,000. Past it, what was being computed is unknown (a value, a loop's
variables, the rest of a module or template)."""

MAX_INCLUDE_DEPTH = 16
"""Deepest chain of compose ``include``/``extends`` followed (compose itself has no limit; real
projects nest two or three levels)."""

MAX_TEMPLATE_DEPTH = 40
"""Deepest chain of Helm ``include``/``template`` calls rendered (charts nest a few levels)."""

MAX_PRINTED_DEPTH = 8
"""Deepest chain of shell functions whose printed command line is read through ``$(f)`` inside
another such function (``f() { echo $(g) --x; }``). Real scripts nest one or two; past it (a
function that calls itself, a generated chain hundreds deep) the output is unknown, not a parse
error."""

MAX_WORDS_PER_LAUNCH = 4_000
"""Most words one launch command may have. SGLang launches have tens of arguments; 16,000 words
reaching one launch through a ``.env`` variable cost seconds in every rule."""

MAX_JSON_BYTES = 4 * 1024 * 1024
"""Largest model ``config.json`` read (bytes). Hugging Face configs are a few KB (the largest,
with long vocabulary maps in them, a few hundred KB)."""

MAX_JSON_DEPTH = 100
"""Deepest nesting of a model ``config.json``. Real configs nest 3–4 levels (``rope_scaling``,
``quantization_config``); Python's json module recurses once per level."""

MAX_PATH_COMPONENT_BYTES = 255
"""Longest file-name component looked up on disk (bytes; NAME_MAX on Linux and macOS). A model path
with a longer component cannot exist, so it is not looked up (the OS would raise ENAMETOOLONG)."""

MAX_PATH_VARIANTS = 16
"""Most variants of one value, or of one launch, kept along the paths of code the linter cannot
decide (the branches of an ``if`` on a command-line flag, a conditional expression in an f-string).
Launch scripts choose between a few switches (a deterministic mode, a debug mode, a backend); past
the limit the part that differs is unknown, as it was before paths were kept (no SGL004: nothing is
skipped, only less is known)."""

MAX_MATRIX_JOBS = 256
"""Most combinations of a GitHub Actions ``strategy.matrix`` enumerated (and most items of one of its
lists, ``include`` or ``exclude``): GitHub's own limit, "A matrix will generate a maximum of 256 jobs
per workflow run" (docs.github.com, "Running variations of jobs in a workflow"). A matrix past it is
unknown, as a matrix written with an expression is (no SGL004: GitHub refuses it). The launches a
step gives are still at most :data:`MAX_PATH_VARIANTS`, one per distinct set of the matrix values it
reads (``linter.extract.github_actions``)."""

MAX_ARG_SETS = 32
"""Most distinct sets of argument values the return value of one Python function is evaluated with
(``def f(a): return a + [...]`` then ``subprocess.run(f([...]))``: the call's arguments bound to its
parameters). Helpers are called with a few argument sets; each set costs one evaluation of the
function (memoised, counted in :data:`MAX_EVAL_STEPS`). Past the limit a call's return value is
evaluated with its arguments unknown, as before arguments were bound (no SGL004: nothing is skipped,
only less is known). Also the most sets of constants a calling function is read along when it hands
a parameter on to a launching function (``def f0(c): f1(c)``); past it, that call gives its own
constants only."""

MAX_CALL_VARIANTS = 8
"""Most launches one Python function's body gives for the different constants its calls pass
(``go(det=True)`` and ``go()``: one launch per distinct set of call arguments, each with its
parameters known). Scripts call a launching function once or twice; past the limit its parameters
are unknown, a value per path for a test on one (no SGL004)."""

MAX_CALL_DEPTH = 12
"""Deepest chain of Python function calls evaluated inside one another for their return values
(``f0(a)`` returning ``f1(a + [...])`` …). Helpers nest two or three deep; a chain past it (or a
recursion, at once) is unknown at the call that goes past it. Also the longest chain of module
functions a parameter is handed on through to the function that launches with it (``f0("fa4")``
calling ``f1(c)``); past it, or in a recursion, the parameter is unknown. Each level costs about 25 interpreter
frames of the evaluator, so the chain stays far from Python's recursion limit."""

MAX_PATH_TRIALS = 8 * MAX_PATH_VARIANTS
"""Most runs of one launch tried to find which of its undecided decisions change what the rules decide
(``linter.extract.python.paths.Paths.focused_paths``), when it is built along more than
:data:`MAX_PATH_VARIANTS` paths: each decision is tried once with the others merged, again when one
more is kept apart. A script with a dozen unrelated switches takes 30 to 60 runs; past the limit the
decisions not tried yet stay merged (no SGL004)."""

MAX_PATH_NESTING = 40
"""Deepest nesting of values kept per path past :data:`MAX_PATH_VARIANTS` (each ``if`` past the cap
keeps its two paths' values, which may be such values themselves). Reading one runs the nested levels
inside one another, a few dozen interpreter frames each; at the limit the value is made one plain
value per path of the decisions whose paths differ in an option the rules decide by (deterministic
inference, a backend …), the other decisions merged (what they agree on known, the rest unknown), and
nests from there again (``linter.extract.python.paths.Paths.collapsed``)."""

ALL = {name: value for name, value in dict(globals()).items() if name.startswith("MAX_")}
"""Every limit by name (for documentation and tests)."""


class LimitExceeded(Exception):
    """An input went past one of the limits above. ``limit`` is its name, ``value`` its value, and
    ``what`` says what reached it (\"a line of 2,000,037 characters\")."""

    def __init__(self, limit: str, what: str) -> None:
        self.limit = limit
        self.value = ALL[limit]
        self.what = what
        super().__init__(message(limit, what))


def message(limit: str, what: str, consequence: str = "the part past it is not checked") -> str:
    """The SGL004 message for ``what`` reaching ``limit`` (a name in :data:`ALL`)."""
    return f"{what} is past the limit {limit} = {ALL[limit]:,} (linter/limits.py); {consequence}"


_hits: contextvars.ContextVar[list | None] = contextvars.ContextVar("lint_configs_limit_hits", default=None)


def record(limit: str, what: str, span=None, consequence: str = "the part past it is not checked") -> None:
    """Note that ``what`` went past ``limit`` while linting the current file. ``span`` (a
    :class:`~linter.source.Span`, or None for the top of the file) is where SGL004 is reported.
    Outside :func:`collect` this does nothing: the caller has already made the value unknown."""
    hits = _hits.get()
    if hits is not None:
        hits.append((span, message(limit, what, consequence)))


def any_recorded() -> bool:
    """True when a limit was hit while linting the current file (inside :func:`collect`)."""
    return bool(_hits.get())


class Budget:
    """The work the expanders may do for one file, shared by all of them (shell, Python, Kubernetes
    ``$(VAR)``, Helm, Dockerfile ``ARG``/``ENV``, compose interpolation and include graphs, a
    ``--config`` file): counters, checked before a value is built. ``chars`` is the characters built
    so far (:data:`MAX_EXPANDED_CHARS`), ``steps`` the evaluator steps taken (:data:`MAX_EVAL_STEPS`).
    Each limit is reported (:func:`record`) once per file, where it was first reached."""

    __slots__ = ("chars", "steps", "reported", "memo")

    def __init__(self) -> None:
        self.chars = 0
        self.steps = 0
        self.reported: set[str] = set()
        self.memo: dict = {}

    def first(self, key) -> bool:
        """True the first time ``key`` is asked for in this file: work done once per file (a
        ``--config`` file judged for the first launch that reads it, not for every launch)."""
        if key in self.memo:
            return False
        self.memo[key] = True
        return True

    def once(self, key, compute):
        """``compute()`` the first time ``key`` is asked for in this file, its result after: a
        ``.env`` or ``--config`` file several launches or compose files of the file read is read and
        counted once. Kept with the budget, so it goes when the file's lint ends."""
        if key not in self.memo:
            self.memo[key] = compute()
        return self.memo[key]

    def fits(self, n: int, what: str, span=None) -> bool:
        """True when a value of ``n`` characters (or list items) may be built; else False (the caller
        makes the value unknown instead) and SGL004 is recorded at ``span``: ``what`` (\"a shell
        value\") is past :data:`MAX_EXPANSION_CHARS`."""
        if n <= MAX_EXPANSION_CHARS:
            return True
        self.hit("MAX_EXPANSION_CHARS", f"{what} of {n:,} characters", span, "its value is unknown")
        return False

    def charge(self, n: int, what: str, span=None, one_value: bool = True) -> bool:
        """Count an expansion that produces ``n`` characters (or list items): True when it may be
        made, False when it is past :data:`MAX_EXPANSION_CHARS` (unless not ``one_value``: a whole
        rendered template) or would bring the file's expansions past :data:`MAX_EXPANDED_CHARS`
        (SGL004 recorded at ``span``; the caller makes it unknown)."""
        if one_value and not self.fits(n, what, span):
            return False
        if self.chars + n > MAX_EXPANDED_CHARS:
            self.hit("MAX_EXPANDED_CHARS", f"the expansions of this file ({self.chars + n:,} characters)", span,
                     "what is expanded past it is unknown")
            return False
        self.chars += n
        return True

    def step(self, what: str, n: int = 1) -> None:
        """Count ``n`` evaluator steps; raises :class:`LimitExceeded` (``MAX_EVAL_STEPS``) once the file's
        steps are spent, and on every step after (the evaluator stops; its caller records it with
        :meth:`stopped` and treats what was being computed as unknown)."""
        self.steps += n
        if self.steps > MAX_EVAL_STEPS:
            raise LimitExceeded("MAX_EVAL_STEPS", what)

    def spend(self, n: int, what: str, span=None, consequence: str = "it is unknown") -> bool:
        """:meth:`step` that does not raise: False (and SGL004 recorded at ``span``) when the ``n``
        steps of ``what`` would bring the file's steps past :data:`MAX_EVAL_STEPS`."""
        if self.steps + n > MAX_EVAL_STEPS:
            self.hit("MAX_EVAL_STEPS", what, span, consequence)
            return False
        self.steps += n
        return True

    def stopped(self, exc: LimitExceeded, span=None, consequence: str = "the part past it is not checked") -> None:
        """Record ``exc`` (raised by :meth:`step` or another limit) as SGL004 at ``span``, once per limit."""
        self.hit(exc.limit, exc.what, span, consequence)

    def hit(self, limit: str, what: str, span=None, consequence: str = "the part past it is not checked") -> None:
        """:func:`record` ``limit`` unless this file has reported it already."""
        if limit not in self.reported:
            self.reported.add(limit)
            record(limit, what, span, consequence)


_budget: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("lint_configs_budget", default=None)


def budget() -> Budget:
    """The budget of the file being linted (:func:`file_budget`); outside one, a new budget that
    bounds only the caller holding it."""
    b = _budget.get()
    return b if b is not None else Budget()


@contextlib.contextmanager
def file_budget(fresh: bool = True):
    """A new :class:`Budget` for the block (one file's lint), or with ``fresh=False`` the active one
    when there is one. Yields the budget."""
    b = None if fresh else _budget.get()
    if b is not None:
        yield b
        return
    b = Budget()
    token = _budget.set(b)
    try:
        yield b
    finally:
        _budget.reset(token)


def budgeted(extract):
    """Decorator for a format's ``extract(source, ws)``: runs it within the active file budget, or a
    new one when called on its own (a test, another tool)."""
    import functools

    @functools.wraps(extract)
    def wrapper(*args, **kwargs):
        with file_budget(fresh=False):
            return extract(*args, **kwargs)

    return wrapper


@contextlib.contextmanager
def collect():
    """Collect :func:`record` calls made inside the block: yields the list of (span, message)."""
    hits: list = []
    token = _hits.set(hits)
    try:
        yield hits
    finally:
        _hits.reset(token)


def long_line(text: str) -> tuple[int, int] | None:
    """(start offset, length) of the first line longer than :data:`MAX_LINE_CHARS`, or None. Linear,
    and a step per ``MAX_LINE_CHARS`` characters rather than per line: from a line start, the last line
    break within the next ``MAX_LINE_CHARS + 1`` characters starts the next step; without one, the line
    is too long."""
    n = len(text)
    p = 0
    while n - p > MAX_LINE_CHARS:
        nl = text.rfind("\n", p, p + MAX_LINE_CHARS + 1)
        if nl < 0:
            end = text.find("\n", p)
            return p, (n if end < 0 else end) - p
        p = nl + 1
    return None


def json_depth_ok(text: str) -> bool:
    """True when ``text`` (JSON) nests at most :data:`MAX_JSON_DEPTH` levels. Linear; strings are
    skipped so brackets inside them do not count."""
    depth = 0
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return False
        elif c in "]}":
            depth -= 1
        i += 1
    return True
