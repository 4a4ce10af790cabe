"""Checks every relative link and #anchor of the built book and of the Markdown front pages.

    python3 .ci/book_check.py BOOK_HTML_DIR

- The book's HTML pages (what `mdbook build docs` wrote into BOOK_HTML_DIR): every `href`
  and `src` that is not an absolute URL must name a file of the book, and its `#anchor` an
  `id` on that page. A link that leaves the book points at a file of the repository
  (`../examples/python_bot.py` from `docs/bots.md`): it is resolved from the page's source
  folder under `docs/`, and must name a file or folder there (mdBook writes `X.md` links as
  `X.html`: the `.md` is looked for too, with its anchor among its headings).
- The Markdown pages read on a repository host (the README, ARCHITECTURE.md,
  CONTRIBUTING.md, CHANGELOG.md, docs/*.md, the crates' READMEs, deploy/README.md): every
  relative link names a file or folder of the repository, and an anchor into a Markdown
  file names one of its headings (as a repository host makes heading ids).

Nothing is fetched: absolute URLs (http:, https:, mailto:) are not checked. Exits 1 naming
every broken link, else prints how many it checked.
"""

import html.parser
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "docs"
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = set()
        self.links = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name in ("id", "name"):
                self.ids.add(value)
            if (name == "href" and tag in ("a", "link")) or (name == "src" and tag in ("img", "script")):
                self.links.append(value)


def slug(heading):
    """A heading's id as a repository host makes it: lowercase, punctuation dropped, each
    space a hyphen."""
    text = re.sub(r"<[^>]+>", "", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def markdown_lines(path, depth=0):
    """The file's lines, with mdBook's `{{#include FILE[:ANCHOR]}}` lines replaced by the file
    they include (a page of the book made of a crate's README has that README's headings)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\{\{#include ([^:}]+)(?::[^}]*)?\}\}\s*$", line)
        if m and depth < 4:
            yield from markdown_lines(Path(os.path.normpath(path.parent / m.group(1))), depth + 1)
        else:
            yield line


def markdown_ids(path):
    ids, seen, fence = set(), {}, False
    for line in markdown_lines(path):
        if line.startswith("```"):
            fence = not fence
            continue
        m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if fence or not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        ids.add(base if n == 0 else f"{base}-{n}")
    return ids


def markdown_links(path):
    fence = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            fence = not fence
            continue
        if fence:
            continue
        line = re.sub(r"`[^`]*`", "", line)
        for m in re.finditer(r"!?\[[^\]]*\]\(([^)\s]+)\)", line):
            yield number, m.group(1)


def check_repo_target(target, anchor):
    """None if `target` (an absolute path in the repository) exists and has `anchor`."""
    if not target.exists() and target.suffix == ".html" and target.with_suffix(".md").exists():
        target = target.with_suffix(".md")
    if not target.exists():
        return "no such file in the repository"
    try:
        target.relative_to(ROOT)
    except ValueError:
        return "outside the repository"
    if anchor and target.suffix == ".md" and anchor not in markdown_ids(target):
        return f"no heading #{anchor} in {target.relative_to(ROOT)}"
    return None


def check_book(book):
    pages = {}
    for path in book.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        if "{{#include" in text:
            sys.exit(f"{path}: an include left as text: is the file or its anchor missing?")
        parser = Page()
        parser.feed(text)
        pages[path.resolve()] = parser
    problems, checked = [], 0
    for path, page in sorted(pages.items()):
        if path.name in ("print.html", "404.html"):
            continue  # every page again, and a page whose links are absolute by design
        rel_dir = path.parent.relative_to(book.resolve())
        for link in page.links:
            if EXTERNAL.match(link) or link.startswith("//"):
                continue
            checked += 1
            file, _, anchor = link.partition("#")
            where = f"{path.relative_to(book.resolve())}: {link}"
            if not file:
                if anchor and anchor not in page.ids:
                    problems.append(f"{where}: no id #{anchor} on the page")
                continue
            target = (path.parent / file).resolve()
            try:
                target.relative_to(book.resolve())
            except ValueError:
                source = Path(os.path.normpath(SRC / rel_dir / file))
                problem = check_repo_target(source, anchor)
                if problem:
                    problems.append(f"{where}: leaves the book: {problem}")
                continue
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                problems.append(f"{where}: no such file in the book")
            elif anchor and target.suffix == ".html" and anchor not in pages[target].ids:
                problems.append(f"{where}: no id #{anchor} in {target.relative_to(book.resolve())}")
    return problems, checked


def check_markdown():
    files = [ROOT / n for n in ("README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "CHANGELOG.md")]
    files += sorted(SRC.rglob("*.md")) + sorted(ROOT.glob("crates/*/README.md")) + [ROOT / "deploy/README.md"]
    problems, checked = [], 0
    for path in sorted(SRC.rglob("*.md")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in re.finditer(r"\{\{#include ([^:}]+)(?::([^}]*))?\}\}", line):
                included = Path(os.path.normpath(path.parent / m.group(1)))
                where = f"{path.relative_to(ROOT)}:{number}: {m.group(0)}"
                if not included.is_file():
                    problems.append(f"{where}: no such file")
                elif m.group(2) and f"ANCHOR: {m.group(2)}" not in included.read_text(encoding="utf-8"):
                    problems.append(f"{where}: no `ANCHOR: {m.group(2)}` in {m.group(1)}")
    for path in files:
        for number, link in markdown_links(path):
            if EXTERNAL.match(link):
                continue
            checked += 1
            file, _, anchor = link.partition("#")
            where = f"{path.relative_to(ROOT)}:{number}: {link}"
            target = path if not file else Path(os.path.normpath(path.parent / file))
            problem = check_repo_target(target, anchor)
            if problem:
                problems.append(f"{where}: {problem}")
    return problems, checked


def main():
    if len(sys.argv) != 2 or not Path(sys.argv[1]).is_dir():
        sys.exit("usage: book_check.py BOOK_HTML_DIR (the folder `mdbook build` wrote)")
    book_problems, book_checked = check_book(Path(sys.argv[1]))
    md_problems, md_checked = check_markdown()
    for p in book_problems + md_problems:
        print(f"broken link: {p}", file=sys.stderr)
    if book_problems or md_problems:
        sys.exit(1)
    if book_checked < 100 or md_checked < 20:
        sys.exit(f"only {book_checked} links in the book and {md_checked} in the Markdown pages: is the book built?")
    print(f"links: {book_checked} in the book and {md_checked} in the Markdown pages, all resolve")


if __name__ == "__main__":
    main()
