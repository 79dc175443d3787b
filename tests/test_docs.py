"""The project owns its rules: docs/rules.md exists, and every section the code cites is there.

A citation is written ``docs/rules.md §2.7`` (one or more sections, as in
``docs/rules.md §3 and §4``); this test finds them in the package, the tests, the examples and
the README, and checks each against the numbered headings of docs/rules.md.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from milligan_widget import PRESETS, Rules

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
CITATION = re.compile(r"docs/rules\.md((?:(?:\s|,|–|and|or|'s)*§\d+(?:\.\d+)?)+)")
SECTION = re.compile(r"§(\d+(?:\.\d+)?)")
HEADING = re.compile(r"^#{2,3} (\d+(?:\.\d+)?)[. ]", re.MULTILINE)


def cited_files() -> list[Path]:
    files = [ROOT / "README.md"]
    for folder in ("milligan_widget", "tests", "examples", "js/src"):
        base = ROOT / folder
        if base.exists():
            files += [
                p
                for p in base.rglob("*")
                if p.suffix in {".py", ".ts", ".ipynb", ".md"} and "node_modules" not in p.parts
            ]
    return files


def citations() -> dict[str, list[str]]:
    """Section number -> where it is cited."""
    found: dict[str, list[str]] = {}
    for path in cited_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in CITATION.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            for section in SECTION.findall(match.group(1)):
                found.setdefault(section, []).append(f"{path.relative_to(ROOT)}:{line}")
    return found


def sections() -> set[str]:
    return set(HEADING.findall(RULES.read_text(encoding="utf-8")))


def test_every_cited_section_exists():
    have, cited = sections(), citations()
    assert len(cited) >= 5, "the code cites docs/rules.md by section"
    missing = {s: where for s, where in cited.items() if s not in have}
    assert not missing, f"cited but not in docs/rules.md: {missing}"


def test_the_old_rules_file_is_not_cited():
    for path in cited_files():
        if path.name == "test_docs.py":
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        assert not re.search(r"(?<![\w/])RULES\.md", text), path


def test_the_rules_page_covers_every_option_and_preset():
    text = RULES.read_text(encoding="utf-8")
    headings = re.findall(r"^### \d+\.\d+ (.+)$", text, re.MULTILINE)
    for option in Rules.__dataclass_fields__:
        assert option in headings, f"option {option} has no section"
    for name in PRESETS:
        assert name in headings, f"preset {name} has no section"


EXAMPLES = [  # (columns, staging options, move): §5.2's rows, in order
    ({1: "KD", 2: "QH"}, {"stock_empty": False}, "2>1"),
    ({1: "9C", 2: "7H"}, {"stock_empty": False}, "2>1"),
    ({1: "2C QH JS"}, {"stock_empty": False}, "1>2"),
    ({1: "9D"}, {"stock_empty": False}, "1>r"),
    ({1: "9D", 2: "8C"}, {"reserve": "5D 4C"}, "2>r"),
    ({1: "10D 4C 9S", 2: "10H"}, {"stock_empty": False}, "1:2>2"),
    ({1: "5C"}, {"foundations": {1: "3C", 2: "3C", 3: "4S"}, "stock_empty": False}, "1>f3"),
    ({1: "5C"}, {"foundations": {1: "3C", 2: "3C", 3: "4S"}, "stock_empty": False}, "1>f"),
    ({1: "6C"}, {"foundations": {1: "5C", 2: "3C"}, "stock_empty": False}, "1>f2"),
    ({1: "KS", 2: "9H 8C"}, {"stock_empty": False}, "2>1"),
    ({1: "3D 5D 4C"}, {"rules": "single-card"}, "1:2>r"),
    ({1: "QH JS"}, {"rules": "millie"}, "1>r"),
    ({1: "7H"}, {"foundations": {1: "5C"}, "rules": "giant", "stock_empty": False}, "f1>2"),
    ({1: "9H", 2: "5D 8S"}, {"rules": "milligan-harp", "face_down": [0, 1]}, "2:2>1"),
    ({1: "10D 3C 9S"}, {"rules": "milligan-harp"}, "1:2>3"),
    ({1: "9H", 2: "8S 5D 8C"}, {"rules": "milligan-yukon"}, "2>1"),
]


def test_the_worked_examples_quote_the_engine():
    """Each reason in §5.2's table is, word for word, what the engine says of its example."""
    from tests.staging import stage

    table = RULES.read_text(encoding="utf-8").split("### 5.2", 1)[1].split("## 6.", 1)[0]
    reasons = re.findall(r'\| "([^"]+)" \|', table)
    assert len(reasons) == len(EXAMPLES)
    for (columns, options, move), reason in zip(EXAMPLES, reasons, strict=True):
        assert stage(columns, **options).explain(move) == reason, (columns, move)


def test_the_play_notebook_lists_every_preset():
    """examples/play.ipynb's "Other rules" names every preset ``rules=`` takes."""
    notebook = json.loads((ROOT / "examples" / "play.ipynb").read_text(encoding="utf-8"))
    text = "".join(
        "".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "markdown"
    )
    (listing,) = re.findall(r"`rules=` takes a preset: (.+?);", text)
    assert re.findall(r"`([\w-]+)`", listing) == list(PRESETS)


LINK = re.compile(r"\]\(([^)\s]+)\)|<img src=\"([^\"]+)\"")


def anchor_of(heading: str) -> str:
    """A Markdown heading's anchor as GitHub makes it: lower case, spaces to hyphens."""
    words = re.sub(r"[^\w\s-]", "", heading.strip().lower())
    return words.replace(" ", "-")


def test_the_links_of_the_readme_and_the_docs_resolve():
    """Every relative link (a file, and its #anchor where one is given) names something there."""
    broken = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for match in LINK.finditer(page.read_text(encoding="utf-8")):
            target = match.group(1) or match.group(2)
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.exists():
                broken.append(f"{page.name}: {target}")
            elif anchor and file.suffix == ".md":
                headings = re.findall(r"^#+ (.+)$", file.read_text(encoding="utf-8"), re.M)
                if anchor not in {anchor_of(h) for h in headings}:
                    broken.append(f"{page.name}: {target} (no such heading)")
    assert not broken, f"links that lead nowhere: {broken}"
