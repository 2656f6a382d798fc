"""The examples of a Markdown file, read from the file itself (``tests/test_readme.py``).

:func:`examples` finds, with the line each starts on:

* ``python`` fenced blocks: ``doctest`` when they hold a ``>>>`` session (their shown output
  is compared), else ``python`` (executed);
* shell commands: each command of a ``sh``/``bash``/``shell``/``console`` block, or of a
  block with no language whose first line is a ``$`` prompt or a ``baccarat`` command;
  lines ending in ``\\`` continue, and so do indented lines, ``# ...`` comments are dropped; after a ``$`` prompt, the
  lines up to the next prompt are the command's shown output (none: not shown);
* ``toml`` fenced blocks, with the file name the next code block's commands give it (the
  one ``*.toml`` they name) when it is a shell block;
* ``inline-python``: code spans that follow "Python:" in a paragraph and parse as a Python
  call;
* ``name``: code spans that are a dotted name under ``analyzer.``; ``path``: code spans or
  links naming a file or folder of the repository (``analyzer/...``, ``tests/...``, ...).

Nothing here knows a particular file, so it reads any Markdown document (``docs/*.md``).
"""

from __future__ import annotations

import ast
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

SHELL_LANGUAGES = {"sh", "bash", "shell", "console", "zsh"}
FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`\s]*)")
SPAN = re.compile(r"(?<!`)`([^`]+)`(?!`)")
LINK = re.compile(r"\]\(([^)\s#]+)\)")
DOTTED = re.compile(r"analyzer(\.[A-Za-z_][A-Za-z0-9_]*)+")
REPO_PATH = re.compile(r"(analyzer|tests|benchmarks|examples|reports)/[A-Za-z0-9_./-]*")


@dataclass(frozen=True)
class Example:
    path: Path
    line: int                 # 1-based line of the example's first line in the file
    kind: str                 # doctest, python, shell, toml, inline-python, name, path
    text: str                 # the code (a shell command as one line, continuations joined)
    block: int = 0            # the fenced block it comes from (0: prose)
    output: str | None = None  # a console command's shown output
    filename: str | None = None  # a toml block's file name, from the commands that use it

    def __str__(self) -> str:
        return f"{self.path.name}:{self.line}"

    @property
    def where(self) -> str:
        return f"{self.path.name} line {self.line}: {self.text[:100]!r}"


def blocks(lines: list[str]):
    """Fenced code blocks: (index, first line number of the code, info string, code lines)."""
    i, n = 0, 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info, start = m["fence"], m["info"].lower(), i + 1
        j = start
        while j < len(lines) and not lines[j].lstrip().startswith(fence):
            j += 1
        n += 1
        yield n, start + 1, info, lines[start:j]
        i = j + 1


def _is_shell(info: str, code: list[str]) -> bool:
    if info in SHELL_LANGUAGES:
        return True
    first = next((c.strip() for c in code if c.strip()), "")
    return info == "" and (first.startswith("$ ") or first.startswith("baccarat "))


def strip_comment(line: str) -> str:
    """The command without a trailing ``# comment`` (a ``#`` outside quotes after a blank)."""
    quote = None
    for k, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (k == 0 or line[k - 1].isspace()):
            return line[:k].rstrip()
    return line.rstrip()


def shell_commands(code: list[str], first_line: int):
    """(line, command, shown output or None) of one shell block."""
    prompted = any(c.startswith("$ ") for c in code)
    out: list = []
    k = 0
    while k < len(code):
        raw = code[k]
        if prompted and not raw.startswith("$ "):
            if out:
                out[-1][2].append(raw)
            k += 1
            continue
        line_no = first_line + k
        text = raw[2:] if raw.startswith("$ ") else raw
        parts = [text]
        while k + 1 < len(code) and (parts[-1].rstrip().endswith("\\") or (
                code[k + 1].startswith((" ", "\t")) and code[k + 1].strip() and not prompted)):
            k += 1                                  # a trailing backslash, or an indented line
            parts[-1] = parts[-1].rstrip().removesuffix("\\")
            parts.append(code[k].strip())
        command = strip_comment(" ".join(p.strip() for p in parts))
        if command:
            out.append([line_no, command, []])
        k += 1
    for line_no, command, shown in out:
        shown = "\n".join(shown).rstrip()
        yield line_no, command, shown + "\n" if shown else None   # no lines: output not shown


def _python_call(span: str) -> bool:
    try:
        tree = ast.parse(span, mode="eval")
    except SyntaxError:
        return False
    return isinstance(tree.body, ast.Call)


def examples(path: str | Path) -> list[Example]:
    """Every example of the Markdown file ``path``, in the file's order."""
    path = Path(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Example] = []
    found_blocks = list(blocks(lines))
    code_lines = set()
    for n, first, info, code in found_blocks:
        code_lines.update(range(first - 1, first + len(code) + 1))
        text = "\n".join(code) + "\n"
        if info in ("python", "py", "pycon"):
            kind = "doctest" if any(c.lstrip().startswith(">>>") for c in code) else "python"
            found.append(Example(path, first, kind, text, n))
        elif info == "toml":
            found.append(Example(path, first, "toml", text, n))
        elif _is_shell(info, code):
            for line_no, command, shown in shell_commands(code, first):
                found.append(Example(path, line_no, "shell", command, n, output=shown))
    # a toml block's name: the one *.toml file the commands of the next block name, when
    # that block follows in the same section and the toml is a whole document
    spans = {n: (first, first + len(code)) for n, first, _, code in found_blocks}
    headings = [k + 1 for k, line in enumerate(lines) if line.startswith("#") and k not in code_lines]
    named = []
    for ex in found:
        if ex.kind == "toml" and ex.block + 1 in spans and _whole_toml(ex.text) and not any(
                spans[ex.block][1] < h < spans[ex.block + 1][0] for h in headings):
            following = [e for e in found if e.block == ex.block + 1 and e.kind == "shell"]
            names = {t for e in following for t in _tokens(e.text) if t.endswith(".toml")}
            ex = Example(ex.path, ex.line, ex.kind, ex.text, ex.block,
                         filename=names.pop() if len(names) == 1 else None)
        named.append(ex)
    found = named
    # prose: inline Python after "Python:", names and paths anywhere outside code blocks
    paragraph: list[tuple[int, str]] = []
    for k, line in enumerate(lines + [""]):
        if k in code_lines or not line.strip():
            found.extend(_prose(path, paragraph))
            paragraph = []
        else:
            paragraph.append((k + 1, line))
    order = {"doctest": 0}
    return sorted(found, key=lambda e: (e.line, order.get(e.kind, 1)))


def _whole_toml(text: str) -> bool:
    import tomllib
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False
    return True


def _tokens(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def _prose(path: Path, paragraph: list[tuple[int, str]]):
    if not paragraph:
        return
    text = "\n".join(line for _, line in paragraph)
    starts = []                               # offset of each line in text
    offset = 0
    for line_no, line in paragraph:
        starts.append((offset, line_no))
        offset += len(line) + 1

    def line_of(pos: int) -> int:
        return max(ln for off, ln in starts if off <= pos)

    marker = re.search(r"\bPython:", text)
    seen = set()
    for m in SPAN.finditer(text):
        span = " ".join(m.group(1).split())
        line_no = line_of(m.start())
        if marker and m.start() > marker.start() and _python_call(span):
            yield Example(path, line_no, "inline-python", span)
            continue
        d = DOTTED.fullmatch(span.removesuffix("()"))
        if d and ("name", d.group(0)) not in seen:
            seen.add(("name", d.group(0)))
            yield Example(path, line_no, "name", d.group(0))
        p = REPO_PATH.match(span)
        if p and "*" not in span and ("path", p.group(0)) not in seen:
            seen.add(("path", p.group(0)))
            yield Example(path, line_no, "path", p.group(0))
    for m in LINK.finditer(text):
        target = m.group(1)
        if not re.match(r"[a-z]+:", target) and ("path", target) not in seen:
            seen.add(("path", target))
            yield Example(path, line_of(m.start()), "path", target)
