#!/usr/bin/python3
"""What is wrong with a policy set, in the words of the file the learner
wrote: its path, the line, the line's text and the likely cause.  Run by
scripts/guest/policy-sets.sh (a policy set's compile, lab 10's build).

  policy-check.py rules SETDIR
      smack.rules and toylsm.rules of the set, checked as the kernel
      parses them (smackfs load2: smk_parse_long_rule(); toylsm:
      toylsm_rule_parse()), and for a rule written in the other module's
      language: a label the set gives only to the other module (files:
      security.SMACK64* or security.toylsm; run: "toylsm LABEL").  Exit
      1 with one message a problem, 0 when there is none.
  policy-check.py apparmor PROFILE PARSER-ERRORS
  policy-check.py selinux KIT.TE POLICY.CONF CHECKPOLICY-ERRORS
      after the compiler refused the file: the line the mistake is most
      likely on (a missing "," or ";" is noticed one rule later), its
      text and the likely cause.  Always exit 0; prints nothing when it
      cannot tell.

A message is "FILE:LINE: error: TEXT", the form compilers use, so that
scripts/lab/build.sh names it as the first error to fix.
"""
import difflib
import os
import re
import sys

# toylsm: demo-lsm/parse.c and label.c (TOYLSM_LABEL_MAX, TOYLSM_PERMS).
TOY_PERMS = "rwxt"
TOY_LABEL = re.compile(r"^[A-Za-z0-9_.:-]{1,31}$")
# Smack: smk_perm_from_str() and smk_parse_smack() (SMK_LONGLABEL 256).
SMACK_PERMS = "rwxatlbRWXATLB"
SMACK_BUILTIN = {"_", "*", "^", "@", "?"}
TOY_BUILTIN = {"init"}


def out(path, no, msg):
    print(f"{path}:{no}: error: {msg}")


def rule_lines(path):
    """(number, text) of each line that is a rule: not blank, no comment."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for no, line in enumerate(f, 1):
                text = line.rstrip("\n")
                s = text.strip()
                if s and not s.startswith("#"):
                    yield no, text
    except FileNotFoundError:
        return


def set_labels(setdir):
    """The labels the set's files and run give each module."""
    smack, toy = set(SMACK_BUILTIN), set(TOY_BUILTIN)
    for _, text in rule_lines(os.path.join(setdir, "files")):
        w = text.split()
        if len(w) >= 3 and w[1].startswith("security.SMACK64"):
            smack.add(w[2])
        elif len(w) >= 3 and w[1] == "security.toylsm":
            toy.add(w[2])
    for _, text in rule_lines(os.path.join(setdir, "run")):
        w = text.split()
        if len(w) >= 2 and w[0] == "toylsm":
            toy.add(w[1])
    return smack, toy


def smack_label_error(label):
    if label.startswith("-"):
        return "a Smack label cannot start with -"
    if len(label) >= 256:
        return "a Smack label has at most 255 characters"
    bad = [c for c in label if c > "~" or c <= " " or c in "/\"\\'"]
    if bad:
        return f"{bad[0]!r} cannot be in a Smack label"
    return None


def other_module(path, no, text, labels, mine, theirs, me, them, their_file):
    """A rule whose labels are the other module's only: written for it?"""
    foreign = [x for x in labels if x in theirs[1] and x not in mine[1]]
    if not foreign:
        return 0
    names = " and ".join(dict.fromkeys(foreign))
    near = [m for x in foreign for m in mine[1] if m.lower() == x.lower()]
    case = (f"; {me}'s is {near[0]} (labels are case-sensitive)"
            if len(set(foreign)) == 1 and near else "")
    known = sorted((mine[1] - SMACK_BUILTIN) | ({"_"} & mine[1]))
    out(path, no, f'"{text.strip()}": {names} {"is" if len(set(foreign)) == 1 else "are"} '
        f"{them}'s label{'s' if len(set(foreign)) > 1 else ''} in this set (given by the set's files or run), "
        f"not {me}'s ({me}'s: {', '.join(known)}){case}: "
        f"a rule for {them} goes in {their_file}")
    return 1


def smack_rule_error(w):
    """What is wrong with the words w of a smack.rules line (after its
    quoted text), or None."""
    if len(w) != 3:
        return (f" has {len(w)} word(s): a Smack rule is SUBJECT OBJECT ACCESS, three words "
                "(ACCESS: letters of rwxatlb, or -)")
    err = smack_label_error(w[0]) or smack_label_error(w[1])
    if err:
        return f": {err}"
    wrong = [c for c in w[2] if c not in SMACK_PERMS and c != "-"]
    if wrong:
        return (f": {wrong[0]} is not a Smack access letter (r read, w write, x execute, "
                "a append, t transmute, l lock, b bring-up, - none); the kernel stops reading "
                "the access at it and takes only the letters before")
    return None


def toy_rule_error(w):
    """What is wrong with the words w of a toylsm.rules line (after its
    quoted text), or None."""
    if len(w) != 3:
        return (f" has {len(w)} word(s): a toylsm rule is SUBJECT OBJECT PERMS, three words "
                "(PERMS: letters of rwxt, or -)")
    lab = [x for x in w[:2] if not TOY_LABEL.match(x)]
    if lab:
        return (f": {lab[0]} is not a toylsm label (1 to 31 characters of A-Z a-z 0-9 _ . : -)")
    p = w[2]
    if p != "-" and (not p or any(c not in TOY_PERMS for c in p) or len(set(p)) != len(p)):
        extra = [c for c in p if c not in TOY_PERMS]
        why = (f"{extra[0]} is not a toylsm permission" if extra
               else "a letter is given twice")
        smackish = " (a is Smack's append: toylsm asks w for every write)" \
            if "a" in extra else ""
        return (f": {why}{smackish}; PERMS is letters of rwxt (r read, w write, x execute, "
                "t transit), each once, or - (no rule)")
    return None


def check_rules(setdir):
    smack, toy = set_labels(setdir)
    # Each module's rules file, its parser's checks, and the other module:
    # a rule that parses can still be written for the other one.
    modules = (("smack.rules", smack_rule_error, ("smack", smack), ("toylsm", toy),
                "Smack", "toylsm", "toylsm.rules"),
               ("toylsm.rules", toy_rule_error, ("toylsm", toy), ("smack", smack),
                "toylsm", "Smack", "smack.rules"))
    bad = 0
    for name, rule_error, mine, theirs, me, them, their_file in modules:
        path = os.path.join(setdir, name)
        for no, text in rule_lines(path):
            w = text.split()
            err = rule_error(w)
            if err:
                out(path, no, f'"{text.strip()}"{err}')
                bad += 1
                continue
            bad += other_module(path, no, text, w[:2], mine, theirs, me, them, their_file)
    return 1 if bad else 0


def read_lines(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return [line.rstrip("\n") for line in f]


def last_rule_before(lines, n):
    """The number of the last line before line n that is not blank or a
    comment, or 0."""
    for k in range(n - 1, 0, -1):
        s = lines[k - 1].strip()
        if s and not s.startswith("#"):
            return k
    return 0


AA_PERMS = "rwaxmlkuUpPciCIN"


def explain_apparmor(prof, errs):
    m = re.search(r"at line (\d+): (.*)", errs)
    if not m:
        return
    n, msg = int(m.group(1)), m.group(2)
    lines = read_lines(prof)
    text = lines[n - 1] if 0 < n <= len(lines) else ""
    if "END_OF_RULE" in msg or "missing an end of line character" in msg:
        k = last_rule_before(lines, n) if "END_OF_RULE" in msg else n
        # "missing an end of line character? (entry: PATH)": the line of
        # PATH without its comma, at or before line n.
        e = re.search(r"\(entry: (\S+)\)", msg)
        for j in range(min(n, len(lines)), 0, -1):
            s = lines[j - 1].strip()
            if e and e.group(1) in s and not s.endswith(","):
                k = j
                break
        if k:
            out(prof, k, f'"{lines[k - 1]}" has no comma at its end: every rule of a profile '
                f'ends with "," (apparmor_parser noticed it only at line {n}, where the next '
                "rule or the } begins)")
        return
    if "expecting TOK_MODE" in msg:
        w = text.split()
        if w and not w[0].startswith(("/", "@", "deny", "audit", "owner", "allow")):
            out(prof, n, f'"{text}": a file rule starts with its path, an absolute one '
                "(/...)")
        elif len(w) >= 2:
            bad = [c for c in w[1].rstrip(",") if c not in AA_PERMS]
            what = f"{bad[0]} is not" if bad else f"{w[1].rstrip(',')} is not"
            out(prof, n, f'"{text}": {what} an AppArmor file permission (r read, w write, '
                "a append, m map executable, ix/px/ux execute, k lock, l link: "
                "apparmor.d(5): make man PAGE=apparmor.d)")
        return
    if "end of file" in msg:
        k = last_rule_before(lines, len(lines) + 1)
        out(prof, k or n, "the profile ends without its closing }: the { of "
            "\"profile NAME PATH {\" needs one after the last rule")
        return
    out(prof, n, f'"{text}": apparmor_parser says: {msg}')


SE_NEEDS_SEMI = ("allow", "type", "attribute", "role", "type_transition", "user",
                 "fs_use_task", "fs_use_trans", "fs_use_xattr", "dontaudit",
                 "auditallow", "neverallow", "typeattribute", "bool", "policycap")


def declared(conf, kind):
    """The names of `kind` (type, class) that policy.conf declares."""
    names = set()
    for line in read_lines(conf):
        w = re.split(r"[\s,;]+", line.strip())
        if len(w) >= 2 and w[0] == kind:
            names.add(w[1])
    return names


def explain_selinux(te, conf, errs):
    m = re.search(r":(\d+):ERROR '([^']*)' at token '([^']*)'", errs)
    if not m:
        return
    n, msg, tok = int(m.group(1)), m.group(2), m.group(3)
    lines = read_lines(te)
    text = lines[n - 1] if 0 < n <= len(lines) else ""
    u = re.match(r"unknown (type|class) (\S+)", msg)
    if u:
        kind, name = u.group(1), u.group(2)
        near = difflib.get_close_matches(name, sorted(declared(conf, kind)), 1, 0.6)
        case = [x for x in declared(conf, kind) if x.lower() == name.lower()]
        hint = (f"; {kind}s are case-sensitive: {case[0]}?" if case else
                f"; did you mean {near[0]}?" if near else "")
        where = "declared with \"type NAME;\" in this file" if kind == "type" else \
            "one of the kernel's classes"
        out(te, n, f'"{text.strip()}": {name} is not a {kind} of this policy (a {kind} must '
            f"be {where}){hint}")
        return
    p = re.match(r"permission (\S+) is not defined for class (\S+)", msg)
    if p:
        perm, cls = p.group(1), p.group(2)
        # The kernel's classes and permissions: policy.conf up to the
        # #line that starts the learner's file.
        head = []
        for line in read_lines(conf):
            if line.startswith("#line"):
                break
            head.append(line)
        words = set(re.findall(r"[a-z_]+", " ".join(head)))
        near = difflib.get_close_matches(perm, sorted(words), 1, 0.75)
        out(te, n, f'"{text.strip()}": {perm} is not a permission of class {cls}'
            + (f"; did you mean {near[0]}?" if near else "")
            + " (a file's: read, write, append, open, getattr...)")
        return
    if msg == "syntax error":
        if text.count("{") != text.count("}"):
            out(te, n, f'"{text.strip()}": a {{ without its }} (or the other way round)')
            return
        k = last_rule_before(lines, n)
        prev = lines[k - 1].strip() if k else ""
        if k and prev.split()[0] in SE_NEEDS_SEMI and not prev.endswith(";"):
            out(te, k, f'"{prev}" has no ";" at its end: every rule ends with ";" '
                f"(checkpolicy noticed it only at line {n}, at the next word, {tok})")
            return
    out(te, n, f'"{text.strip()}": checkpolicy says: {msg}, at the word {tok}')


def main(argv):
    if len(argv) == 3 and argv[1] == "rules":
        return check_rules(argv[2])
    if len(argv) == 4 and argv[1] == "apparmor":
        explain_apparmor(argv[2], open(argv[3], encoding="utf-8", errors="replace").read())
        return 0
    if len(argv) == 5 and argv[1] == "selinux":
        explain_selinux(argv[2], argv[3], open(argv[4], encoding="utf-8",
                                                errors="replace").read())
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
