#!/usr/bin/env python3
"""Holds each catalog to its glossary (po/glossary/<lang>.tsv; po/README.md says the format).

A text that keeps the term verbatim, as the person types it ('pause until
17:30', the method Snooze), passes, unless it is the English text whole. A
line `except<TAB>English text<TAB>why` leaves one text out. For every other text of po/<lang>.po whose English holds a glossary term as a whole
word or phrase (any case), every form of its translation must hold one of the
words the glossary gives for that term (any case; a stem is enough). Prints
one line per text that words a term otherwise and exits 1; exits 2 on a
glossary that is missing, malformed or lacks one of the required terms.

    po_glossary.py PO_DIR LANG…
"""
import re
import sys

# The rule's distance, worded one way in each language: its line gives exactly one wording.
DISTANCE = "20 feet (6 m)"

# The terms every language's glossary names: the desktop's own words for
# what iCare shows (issue: 'the desktop's own words').
REQUIRED = ["Do not disturb", "Snooze", "Skip", "Pause", "Resume", "Preferences",
            "Start at Login", "screen lock", DISTANCE]


def unquote(s):
    return s.encode("latin-1", "backslashreplace").decode("unicode_escape") if "\\" in s else s


def entries(path):
    """(msgid, msgid_plural, [msgstr…]) for each live entry of a .po file."""
    out, cur, key = [], None, None
    def flush():
        if cur and cur.get("msgid"):
            out.append((cur["msgid"], cur.get("msgid_plural", ""),
                        [v for k, v in sorted(cur.items()) if k.startswith("msgstr")]))
    for raw in open(path, encoding="utf-8"):
        line = raw.strip()
        if line.startswith("#~"):
            continue
        if not line or line.startswith("#"):
            if key is not None and not line:
                flush(); cur, key = None, None
            continue
        m = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+"(.*)"$', line)
        if m:
            if m.group(1) in ("msgctxt", "msgid") and key is not None and key.startswith("msgstr"):
                flush(); cur = None
            if cur is None:
                cur = {}
            key = m.group(1)
            cur[key] = unquote(m.group(2))
        elif line.startswith('"') and key is not None:
            cur[key] += unquote(line[1:-1])
    flush()
    return out


def glossary(path):
    """The terms [(line, term, words)] and the texts excepted {msgid: line}."""
    terms, excepted = [], {}
    for n, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) != 3 or not all(c.strip() for c in cols):
            sys.exit(f"{path}:{n}: want three tab-separated columns: term, the desktop's word(s), where from")
        if cols[0].strip() == "except":
            excepted[cols[1].strip()] = n
            continue
        words = [w.strip() for w in cols[1].split("|") if w.strip()]
        if cols[0].strip() == DISTANCE and len(words) != 1:
            sys.exit(f"{path}:{n}: the distance is worded one way; give one wording, not {len(words)}")
        terms.append((n, cols[0].strip(), words))
    named = {t.casefold() for _, t, _ in terms}
    missing = [t for t in REQUIRED if t.casefold() not in named]
    if missing:
        print(f"{path}: names no word for {', '.join(missing)}", file=sys.stderr)
        sys.exit(2)
    return terms, excepted


def main():
    po_dir, langs = sys.argv[1], sys.argv[2:]
    bad = 0
    for lang in langs:
        gpath = f"{po_dir}/glossary/{lang}.tsv"
        try:
            terms, excepted = glossary(gpath)
        except FileNotFoundError:
            print(f"{gpath}: missing; every language has a glossary", file=sys.stderr)
            sys.exit(2)
        ids = set()
        for msgid, plural, strs in entries(f"{po_dir}/{lang}.po"):
            ids.add(msgid)
            if msgid in excepted:
                continue
            english = msgid + "\n" + plural
            for n, term, words in terms:
                if not re.search(r"(?<!\w)" + re.escape(term) + r"(?!\w)", english, re.I):
                    continue
                # A text that keeps the English word as the person types it ('pause until
                # 17:30', the method Pause) holds it verbatim: that is not a wording.
                kept = [m.group(0) for m in re.finditer(r"(?<!\w)" + re.escape(term) + r"(?!\w)", english, re.I)]
                for s in strs:
                    if any(re.search(r"(?<!\w)" + re.escape(k) + r"(?!\w)", s) for k in kept) and s != msgid:
                        continue
                    if s and not any(w.casefold() in s.casefold() for w in words):
                        print(f"po/{lang}.po: '{msgid}' has '{term}' but '{s}' has none of "
                              f"{' | '.join(words)} ({gpath}:{n})", file=sys.stderr)
                        bad = 1
        for msgid, n in excepted.items():
            if msgid not in ids:
                print(f"{gpath}:{n}: excepts '{msgid}', which po/{lang}.po does not have", file=sys.stderr)
                bad = 1
    sys.exit(bad)


if __name__ == "__main__":
    main()
