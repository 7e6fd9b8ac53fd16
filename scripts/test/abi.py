#!/usr/bin/python3
"""The answers of tests/abi/lsm_side.c on the two kernels, side by side.

  abi.py table KIT.out MAINLINE.out          two columns, '*' where they differ
  abi.py rows KIT.out MAINLINE.out           the rows that differ, as the
      document's table has them (to paste when the kernels change)
  abi.py check KIT.out MAINLINE.out DOC.md   the rows that differ must be
      exactly the rows of DOC's table between <!-- abi:begin --> and
      <!-- abi:end --> (question | kit | mainline), value for value

An answers file has one "question<TAB>answer" line per question (other
lines, such as the runner's, are ignored).  check prints one TAP line per
question (ok / not ok) and exits 1 when a row differs from the document.
"""
import re
import sys


def answers(path):
    out = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if "\t" not in line:
                continue
            q, a = line.split("\t", 1)
            out[q] = a
    return out


def both(kpath, mpath):
    k, m = answers(kpath), answers(mpath)
    if not k or not m:
        empty = kpath if not k else mpath
        sys.exit(f"abi.py: no answers in {empty}: did lsm_side run in the guest?")
    order = list(k) + [q for q in m if q not in k]
    return order, k, m


def table(kpath, mpath):
    order, k, m = both(kpath, mpath)
    w0 = max(len(q) for q in order)
    w1 = max(len("kit (6.1 + series)"), max(len(k.get(q, "")) for q in order))
    print(f"  {'question':<{w0}}  {'kit (6.1 + series)':<{w1}}  mainline (6.12)")
    for q in order:
        a, b = k.get(q, "(not asked)"), m.get(q, "(not asked)")
        mark = " " if a == b else "*"
        print(f"{mark} {q:<{w0}}  {a:<{w1}}  {b}")
    nd = sum(1 for q in order if k.get(q) != m.get(q))
    print(f"\n{len(order)} questions, {nd} answers differ (*)")


def rows(kpath, mpath):
    order, k, m = both(kpath, mpath)
    esc = lambda v: "`" + v.replace("|", "\\|") + "`"
    for q in order:
        if k.get(q) != m.get(q):
            print(f"| {q} | {esc(k.get(q, ''))} | {esc(m.get(q, ''))} |")


def cell(s):
    s = s.strip()
    if len(s) >= 2 and s[0] == "`" and s[-1] == "`":
        s = s[1:-1]
    return s.replace("\\|", "|")


def doc_rows(path):
    rows, on, seen = {}, False, False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if "<!-- abi:begin -->" in line:
                on, seen = True, True
                continue
            if "<!-- abi:end -->" in line:
                on = False
                continue
            if not on or not line.startswith("|"):
                continue
            cells = [cell(c) for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            if len(cells) != 3 or cells[0] in ("question", "") or set(cells[0]) <= set("-: "):
                continue
            rows[cells[0]] = (cells[1], cells[2], n)
    if not seen:
        sys.exit(f"abi.py: {path} has no <!-- abi:begin --> table")
    return rows


def check(kpath, mpath, docpath):
    order, k, m = both(kpath, mpath)
    rows = doc_rows(docpath)
    n = bad = 0
    for q in order + [q for q in rows if q not in order]:
        n += 1
        a, b = k.get(q), m.get(q)
        if q in rows:
            dk, dm, line = rows[q]
            if a is None or b is None:
                msg = f"the document (line {line}) lists a question the program did not ask on both kernels"
            elif a == b:
                msg = (f"the document (line {line}) claims a difference, the kernels agree: "
                       f"both say '{a}'")
            elif (a, b) != (dk, dm):
                msg = (f"the document (line {line}) says kit '{dk}', mainline '{dm}'; "
                       f"the kernels say kit '{a}', mainline '{b}'")
            else:
                print(f"ok {n} {q}: differs as documented")
                continue
        elif a != b:
            msg = f"the kernels differ (kit '{a}', mainline '{b}'), the document does not list it"
        else:
            print(f"ok {n} {q}: the same on both")
            continue
        print(f"not ok {n} {q}: {msg}")
        bad = 1
    print(f"1..{n}")
    return bad


if __name__ == "__main__":
    a = sys.argv[1:]
    if len(a) == 3 and a[0] == "table":
        table(a[1], a[2])
    elif len(a) == 3 and a[0] == "rows":
        rows(a[1], a[2])
    elif len(a) == 4 and a[0] == "check":
        sys.exit(check(a[1], a[2], a[3]))
    else:
        sys.exit(__doc__)
