#!/usr/bin/env python3
"""Checks the relative links of the Markdown docs: every target exists, and every #anchor into a
Markdown file names one of its headings (GitHub's spelling of them).

    scripts/check-doc-links.py            # README.md, CONTRIBUTING.md, docs/**/*.md
    scripts/check-doc-links.py FILE...    # those files only

Links are [text](target) and ![alt](target); http(s) and mailto links are not checked. Also
checked: every `docs/results/...` or `results/...` path quoted in backticks that names a file
or folder under docs/results (a path with a `*` or `<` is a pattern, not a link). Prints each
broken link as FILE:LINE: TARGET (why) and exits 1 if there is one.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
QUOTED = re.compile(r"`((?:docs/)?results/[^`\s]*)`")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found, counts, fenced = set(), {}, False
        for line in path.read_text(encoding="utf-8").splitlines():
            if FENCE.match(line):
                fenced = not fenced
                continue
            m = None if fenced else HEADING.match(line)
            if m:
                base = slug(m.group(2))
                n = counts.get(base, 0)
                counts[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
        cache[path] = found
    return cache[path]


def check(md):
    problems = []
    fenced = False
    for number, line in enumerate(md.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        targets = [m.group(1) for m in LINK.finditer(line)]
        for quoted in QUOTED.findall(line):
            if "*" in quoted or "<" in quoted:
                continue
            base = ROOT if quoted.startswith("docs/") else ROOT / "docs"
            if not (base / quoted).exists():
                problems.append(f"{md.relative_to(ROOT)}:{number}: {quoted} (no such file, quoted)")
        for target in targets:
            if re.match(r"^(https?:|mailto:)", target):
                continue
            path_part, _, anchor = target.partition("#")
            dest = md if path_part == "" else (md.parent / path_part).resolve()
            if not dest.exists():
                problems.append(f"{md.relative_to(ROOT)}:{number}: {target} (no such file)")
                continue
            if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                problems.append(f"{md.relative_to(ROOT)}:{number}: {target} (no heading #{anchor})")
    return problems


def main(argv):
    files = [pathlib.Path(a).resolve() for a in argv] or sorted(
        [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").rglob("*.md")])
    problems = [p for md in files for p in check(md)]
    for p in problems:
        print(p)
    print(f"check-doc-links: {len(files)} files, {len(problems)} broken links", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
