# SPDX-License-Identifier: GPL-2.0-only
#
# The kit's gdb commands, for what the series adds to the LSM framework:
# loaded by scripts/debug/gdb.sh (make gdb) after the kernel's own helpers
# (vmlinux-gdb.py: lx-dmesg, lx-ps, ...). `help lsm` lists them:
#
#   lsm hooks HOOK     the modules registered for HOOK, in the order the
#                      hook walk calls them (security_hook_heads.HOOK);
#                      without HOOK, every hook that has a module
#   lsm active         the table of active LSMs (lsm_idlist, patch
#                      "Maintain a table of the active LSMs") and the
#                      lsmblob slots (lsm_slotlist, "Add struct lsmblob")
#   lsm task [PID]     a task's interface LSM (PR_LSM_ATTR_SET) and the
#                      secids of its cred, slot by slot, each with its
#                      module and, where the module has one, its label
#   lsm toylsm         toylsm's label table and its rules
#   lsm break HOOK COMM a breakpoint in security_HOOK that stops only when
#                      the task is COMM (the guest command's program)
#
# They only read memory: nothing is called in the guest, so they are safe
# at any stop. They read the structures by their names in the kernel's
# DWARF (the debug-info kernel, FLAVOUR=gdb), so a field the series
# renames breaks them loudly (a gdb error naming it), not silently.

import gdb

# include/uapi/linux/lsm.h (LSM_ATTR_CURRENT) and demo-lsm/parse.h
# (TOYLSM_PERMS): macros, which DWARF without -g3 does not carry.
LSM_ATTR_CURRENT = 0x0001
TOYLSM_PERMS = "rwxt"
LSMBLOB_SLOT_NAMES = {-1: "invalid", -2: "needed (not registered yet)",
                      -3: "no slot"}


def _int(v):
    return int(v.cast(gdb.lookup_type("long")))


def _addr(v):
    return int(v.cast(gdb.lookup_type("unsigned long")))


def _symbol(fn):
    """The name of the function a hook pointer points to."""
    addr = int(fn.cast(gdb.lookup_type("unsigned long")))
    if addr == 0:
        return "NULL"
    block = gdb.current_progspace().block_for_pc(addr)
    while block is not None and block.function is None:
        block = block.superblock
    if block is not None and block.function is not None:
        return block.function.name
    # No DWARF there: the ELF symbol ("NAME in section .text").
    info = gdb.execute("info symbol 0x%x" % addr, to_string=True).split()
    if len(info) > 2 and info[1] == "in":
        return info[0]
    return "0x%x" % addr


def _lsm_name(lsmid):
    if _int(lsmid) == 0:
        return "(none)"
    return lsmid["name"].string()


def _hook_list(hook):
    """(module name, function) of each security_hook_list on HOOK."""
    heads = gdb.parse_and_eval("security_hook_heads")
    try:
        head = heads[hook]
    except gdb.error:
        raise gdb.GdbError("no hook '%s' in struct security_hook_heads "
                           "(names as in include/linux/lsm_hook_defs.h, "
                           "e.g. file_open)" % hook)
    shl = gdb.lookup_type("struct security_hook_list")
    offset = 0
    for f in shl.fields():
        if f.name == "list":
            offset = f.bitpos // 8
    out = []
    node = head["first"]
    seen = 0
    while _int(node) != 0:
        hp = (node.cast(gdb.lookup_type("char").pointer()) - offset).cast(
            shl.pointer())
        out.append((_lsm_name(hp["lsmid"]), _symbol(hp["hook"][hook])))
        node = node["next"]
        seen += 1
        if seen > 64:
            raise gdb.GdbError("hook list of %s does not end: memory is "
                               "not what gdb expects" % hook)
    return out


def _booted():
    """Whether security_init() has run: before the kernel has set up its
    page tables (the first stop of make gdb), its data cannot be read."""
    try:
        return _int(gdb.parse_and_eval("lsm_active_cnt")) > 0
    except gdb.MemoryError:
        return False


def _not_booted():
    print("no module has registered yet: the kernel has not run "
          "security_init(). Break at a hook and continue first.")


class Lsm(gdb.Command):
    """The kit's commands for the LSM stacking series: lsm hooks, lsm active,
lsm task, lsm toylsm, lsm break (help lsm COMMAND for each)."""

    def __init__(self):
        super().__init__("lsm", gdb.COMMAND_DATA, gdb.COMPLETE_NONE, True)


class LsmHooks(gdb.Command):
    """The modules on a hook, in walk order: lsm hooks HOOK

HOOK is a member of struct security_hook_heads (the names of
include/linux/lsm_hook_defs.h: file_open, inode_permission, task_kill...).
Each line: the position in the walk, the module (its lsm_id's name) and
the function it registered. call_int_hook() calls them in this order and
stops at the first that refuses. Without HOOK: every hook with at least
one module, one line each."""

    def __init__(self):
        super().__init__("lsm hooks", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        args = gdb.string_to_argv(arg)
        if not _booted():
            _not_booted()
            return
        if args:
            for hook in args:
                mods = _hook_list(hook)
                print("%s: %d module(s), in walk order" % (hook, len(mods)))
                for i, (name, fn) in enumerate(mods):
                    print("  %d. %-10s %s" % (i + 1, name, fn))
            return
        heads = gdb.lookup_type("struct security_hook_heads")
        for f in heads.fields():
            mods = _hook_list(f.name)
            if mods:
                print("%-32s %s" % (f.name, " ".join(m for m, _ in mods)))


class LsmActive(gdb.Command):
    """The table of active LSMs and the lsmblob slots: lsm active

lsm_idlist[] is the order in which the modules registered (the order of
lsm= and of /sys/kernel/security/lsm), with each module's LSM ID, the
process attributes it provides and its lsmblob slot. lsm_slotlist[] gives
the module of each slot of struct lsmblob; the first slot whose module
has a "current" attribute is the default interface LSM."""

    def __init__(self):
        super().__init__("lsm active", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        if not _booted():
            _not_booted()
            return
        n = _int(gdb.parse_and_eval("lsm_active_cnt"))
        idl = gdb.parse_and_eval("lsm_idlist")
        print("active LSMs (lsm_idlist, %d):" % n)
        for i in range(n):
            m = idl[i]
            slot = _int(m["slot"])
            print("  %d. %-10s id %-3d features 0x%02x  slot %s" % (
                i, _lsm_name(m), _int(m["id"]), _int(m["features"]),
                LSMBLOB_SLOT_NAMES.get(slot, str(slot))))
        ns = _int(gdb.parse_and_eval("lsm_slot_cnt"))
        sl = gdb.parse_and_eval("lsm_slotlist")
        total = sl.type.range()[1]  # LSMBLOB_ENTRIES (+1 for the NULL)
        print("lsmblob slots (lsm_slotlist, %d used of %d):" % (ns, total))
        default = None
        for s in range(ns):
            m = sl[s]
            can = _int(m["features"]) & LSM_ATTR_CURRENT
            if can and default is None:
                default = _lsm_name(m)
            print(("  slot %d: %-10s%s" % (
                s, _lsm_name(m),
                "" if can else "  (no contexts: never an interface LSM)")
                   ).rstrip())
        print("default interface LSM: %s" % (default or "(none)"))


def _blob(cred, module):
    """The address of MODULE's part of CRED's security blob."""
    off = _int(gdb.parse_and_eval("%s_blob_sizes" % module)["lbs_cred"])
    return cred["security"].cast(gdb.lookup_type("char").pointer()) + off


def _toylsm_label(secid):
    if secid == 0:
        return "(no label)"
    if secid == 0xffffffff:
        return "(closed)"
    t = gdb.parse_and_eval("toylsm_labels")
    if secid > _int(t["count"]):
        return "(not in the table)"
    return t["names"][secid - 1].string()


def _secid_of(module, cred):
    """(secid, label) that MODULE keeps in CRED, as its cred_getsecid hook
    gives it (AppArmor has none: its label's secid, marked)."""
    if module == "selinux":
        tsec = _blob(cred, "selinux").cast(
            gdb.lookup_type("struct task_security_struct").pointer())
        return _int(tsec["sid"]), "sid (the context: in the guest, "\
            "/proc/PID/attr/selinux/current)"
    if module == "smack":
        tsp = _blob(cred, "smack").cast(
            gdb.lookup_type("struct task_smack").pointer())
        skp = tsp["smk_task"]
        return _int(skp["smk_secid"]), skp["smk_known"].string()
    if module == "toylsm":
        tc = _blob(cred, "toylsm").cast(
            gdb.lookup_type("struct toylsm_cred").pointer())
        sid = _int(tc["label"]) & 0xffffffff
        return sid, _toylsm_label(sid)
    if module == "apparmor":
        lp = _blob(cred, "apparmor").cast(
            gdb.lookup_type("struct aa_label").pointer().pointer())
        label = lp.dereference()
        if _int(label) == 0:
            return 0, "(no label)"
        name = label["hname"]
        return _int(label["secid"]), (name.string() if _int(name)
                                      else "(unnamed)")
    return None, None


def _task(arg):
    args = gdb.string_to_argv(arg)
    if not args:
        try:
            return gdb.parse_and_eval("$lx_current()")
        except gdb.error:
            raise gdb.GdbError("no $lx_current(): the kernel's gdb helpers "
                               "(vmlinux-gdb.py) are not loaded; give a PID")
    try:
        from linux import tasks
    except ImportError:
        raise gdb.GdbError("lsm task PID needs the kernel's gdb helpers "
                           "(vmlinux-gdb.py)")
    t = tasks.get_task_by_pid(int(args[0]))
    if t is None:
        raise gdb.GdbError("no task with PID %s" % args[0])
    return t


class LsmTask(gdb.Command):
    """A task's interface LSM and its cred's secids: lsm task [PID]

Without PID, the task running on the CPU gdb stopped (current). The
interface LSM is the slot the task chose with prctl(PR_LSM_ATTR_SET) (in
the first int of task->security), or, if it chose none, the default one.
The secids are those security_cred_getsecid() puts in a struct lsmblob
for task->cred, slot by slot, each with its module and its label."""

    def __init__(self):
        super().__init__("lsm task", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        if not _booted():
            _not_booted()
            return
        task = _task(arg)
        print("task %d (%s)" % (_int(task["pid"]), task["comm"].string()))
        ns = _int(gdb.parse_and_eval("lsm_slot_cnt"))
        sl = gdb.parse_and_eval("lsm_slotlist")
        blob = task["security"]
        if _int(blob) == 0:
            print("  interface LSM: (no task blob)")
        else:
            ilsm = _int(blob.cast(gdb.lookup_type("int").pointer())
                        .dereference())
            if 0 <= ilsm < ns:
                print("  interface LSM: %s (slot %d, chosen with "
                      "PR_LSM_ATTR_SET)" % (_lsm_name(sl[ilsm]), ilsm))
            else:
                default = "(none)"
                for s in range(ns):
                    if _int(sl[s]["features"]) & LSM_ATTR_CURRENT:
                        default = _lsm_name(sl[s])
                        break
                print("  interface LSM: %s (none chosen: the default)"
                      % default)
        cred = task["cred"]
        getsecid = {m for m, _ in _hook_list("cred_getsecid")}
        print("  cred 0x%x, its lsmblob (security_cred_getsecid):"
              % _addr(cred))
        for s in range(ns):
            name = _lsm_name(sl[s])
            sid, label = _secid_of(name, cred)
            if name not in getsecid:
                shown = "0 (%s has no cred_getsecid hook%s)" % (
                    name, "" if sid is None else
                    "; its label: secid %d, %s" % (sid, label))
            elif sid is None:
                shown = "? (the kit does not know %s's blob)" % name
            else:
                shown = "%d  %s" % (sid, label)
            print("    slot %d %-10s %s" % (s, name, shown))


class LsmToylsm(gdb.Command):
    """toylsm's labels and rules: lsm toylsm

The label table (secid = index + 1; demo-lsm/label.c) and the current
rule table (toylsm_ruleset; demo-lsm/rules.c), each rule as
"SUBJECT OBJECT PERMS", as /sys/kernel/security/toylsm/rules shows it."""

    def __init__(self):
        super().__init__("lsm toylsm", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        if not _booted():
            _not_booted()
            return
        t = gdb.parse_and_eval("toylsm_labels")
        n = _int(t["count"])
        print("toylsm labels (%d of %d):" % (n, _int(t["capacity"])))
        for i in range(n):
            print("  %3d %s" % (i + 1, t["names"][i].string()))
        rs = gdb.parse_and_eval("toylsm_ruleset")
        if _int(rs) == 0:
            print("toylsm rules: none (no rule written yet)")
            return
        n = _int(rs["count"])
        print("toylsm rules (%d):" % n)
        # rules[] is a flexible array: step a pointer over it.
        first = rs["rules"].address.cast(
            gdb.lookup_type("struct toylsm_rule").pointer())
        for i in range(n):
            r = (first + i).dereference()
            perms = _int(r["perms"])
            letters = "".join(c for b, c in enumerate(TOYLSM_PERMS)
                              if perms & (1 << b))
            print("  %s %s %s" % (_toylsm_label(_int(r["subject"])),
                                  _toylsm_label(_int(r["object"])), letters))


class LsmBreak(gdb.Command):
    """Stop in a hook only for one program: lsm break HOOK COMM

A breakpoint at the first instruction of security_HOOK (HOOK as in lsm
hooks: file_open, inode_permission...) whose condition is that the task
calling it is named COMM ($lx_current().comm, the first 15 characters of
the program's file name): "lsm break file_open cat" with make gdb
CMD='cat /etc/passwd' stops in cat's open, not first in a kworker's or
the shell's during boot, as a plain "break security_file_open" does. The
hook's arguments are then in $rdi, $rsi... (x86_64 ABI)."""

    def __init__(self):
        super().__init__("lsm break", gdb.COMMAND_BREAKPOINTS)

    def invoke(self, arg, from_tty):
        args = gdb.string_to_argv(arg)
        if len(args) != 2:
            raise gdb.GdbError("usage: lsm break HOOK COMM (e.g. lsm break file_open cat)")
        hook, comm = args
        fn = hook if hook.startswith("security_") else "security_" + hook
        if gdb.lookup_global_symbol(fn) is None and \
                gdb.lookup_static_symbol(fn) is None:
            raise gdb.GdbError("no function %s in this kernel: HOOK is a name of "
                               "include/linux/lsm_hook_defs.h (lsm hooks lists them)" % fn)
        if not comm.replace("-", "").replace("_", "").replace(".", "").isalnum():
            raise gdb.GdbError("COMM is a program's name: letters, digits, - _ .")
        bp = gdb.Breakpoint("*" + fn)
        bp.condition = '$_streq($lx_current().comm, "%s")' % comm[:15]
        print("breakpoint %d: %s, only when the task is %s" % (bp.number, fn, comm[:15]))


Lsm()
LsmBreak()
LsmHooks()
LsmActive()
LsmTask()
LsmToylsm()
