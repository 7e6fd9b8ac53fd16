# The LSM stacking workshop kit.  Each target is one line here; the work is
# done by the small scripts in scripts/, one job each.  `make help` lists
# the targets.

# `make lab N SHELL=1` asks for a guest shell; make's own SHELL stays bash.
ifeq ($(origin SHELL),command line)
KIT_SHELL := $(SHELL)
endif
override SHELL := /bin/bash
# CMD, APPEND, SETUP and WHY reach the guest untouched: make expands neither (a `$f` in
# CMD='for f in a b; do echo $f; done' stays `$f`).
$(foreach v,CMD APPEND SETUP WHY,$(if $(filter command line,$(origin $(v))),$(eval override $(v) := $$(value $(v)))))
export KIT_SHELL FLAVOUR CMD APPEND SETUP WHY POLICY MAINLINE BROWSER LINT
# Command-line variables reach the scripts through the environment only:
# the kernel's own make, which the scripts run, must not inherit SHELL=1
# (or anything else given to this make) through MAKEFLAGS.
MAKEOVERRIDES :=

S := scripts

.PHONY: help doctor deps image image-save bundle tree kernel initramfs run why console gdb test test-debug selftests \
	compile-check series-builds mainline abi mainline-tests bench man labs lab skel lab-check progress room room-admin room-export room-reset join clean distclean
.DEFAULT_GOAL := help

##@ host: this machine
help:		## this list
	@awk -f $(S)/host/help.awk $(MAKEFILE_LIST)

doctor:		## pre-flight check of this machine: READY, or each thing to fix and how
	@$(S)/host/doctor.sh

deps:		## install the Debian packages the kit needs (as root; BUNDLE=FILE SHA256=DIGEST: from make bundle's file, no network)
	@if [ -n "$${BUNDLE:-}" ]; then $(S)/bundle/install.sh "$$BUNDLE"; else $(S)/host/deps.sh --install; fi

man:		## a manual page the kit cites, offline (PAGE=apparmor.d: the unpacked apparmor package's)
	@$(S)/host/man.sh "$(PAGE)"

clean:		## remove build outputs, keep the extracted source
	@$(S)/host/clean.sh

distclean:	## remove all of build/, the extracted source included
	@rm -rf build

##@ lab: the labs
labs:		## list the labs, with titles and time estimates
	@$(S)/lab/lab.sh list

lab:		## make lab N: build, boot, grade lab N (SOLUTION=1 SHELL=1 STEP=k GDB=1; HINT=2: the line to write too)
	@$(S)/lab/lab.sh run $(LAB_ARGS)

skel:		## make skel N STEP=k: fresh skeleton, steps before k solved
	@$(S)/lab/lab.sh skel $(LAB_ARGS)

lab-check:	## check every lab (make lab-check N: one) offline, in seconds: no kernel build, no guest
	@$(S)/lab/lab-check.sh $(LAB_ARGS)

##@ progress: how far each one got
progress:	## each lab's last result (OUT=FILE NAME=...: a file for the instructor; FROM=DIR: the room's table)
	@$(S)/progress/progress.sh

##@ room: the instructor's room
room:		## the instructor's room: a page of who is stuck where, fed by make join (PORT=8041 BIND=127.0.0.1 DB=FILE ROSTER=FILE IDLE=20)
	@$(S)/room/room.sh

room-admin:	## the room's names; RENAME=OLD TO=NEW, MERGE=FROM TO=INTO, REMOVE=NAME change one (DB=FILE)
	@$(S)/room/room.sh admin

room-export:	## every run the room has, as CSV (OUT=FILE DB=FILE)
	@$(S)/room/room.sh export

room-reset:	## a new day: the room's runs kept in a dated copy of its database, then none (DB=FILE)
	@$(S)/room/room.sh reset

join:		## join the room once: make join ROOM=http://HOST:PORT NAME='Your Name' (it asks for the token)
	@$(S)/room/client.py join "$${ROOM:-}" "$${NAME:-}"

##@ guest: one guest
run:		## run CMD='...' in the guest; exit status is the command's (POLICY=SET loads a policy set first)
	@$(S)/kernel/kernel.sh && $(S)/guest/run-guest.sh --cmd "$${CMD:-true}"

console:	## interactive busybox shell in the guest (leave: exit)
	@$(S)/kernel/kernel.sh && $(S)/guest/run-guest.sh --shell

initramfs:	## pack the guest's busybox initramfs
	@$(S)/host/deps.sh && $(S)/guest/initramfs.sh

##@ debug: who said no, and gdb
why:		## who said no: run CMD='...' in the guest under /bin/why (APPEND= POLICY=SET SETUP= WHY=; SVG=FILE: the walk as a picture)
	@$(S)/debug/why.sh

gdb:		## the guest under gdb, stopped at its start (CMD= APPEND=; GUEST=1, ATTACH=1: two terminals)
	@$(S)/debug/gdb.sh

##@ kernel: the trees and the kernels
tree:		## (re)create build/linux: pristine 6.1 + patches/ + demo-lsm/
	@$(S)/host/deps.sh && mkdir -p "$${BUILD:-build}" && flock "$${BUILD:-build}/.tree.lock" $(S)/kernel/tree.sh

kernel:		## build build/bzImage and build/usr/include (FLAVOUR=debug: KASAN, UBSAN, lockdep; FLAVOUR=gdb: debug info, make gdb's; FLAVOUR=bpf: the BPF LSM, TOMOYO, LoadPin, Lockdown)
	@$(S)/kernel/kernel.sh

mainline:	## build the reference kernel, Debian's 6.12 unpatched (then: make run FLAVOUR=mainline CMD=...)
	@$(S)/kernel/kernel.sh --flavour mainline

compile-check:	## compile every caller the series converts (NFS, ceph, netfilter...), 0 warnings
	@$(S)/kernel/compile-check.sh

series-builds:	## build the kernel at each patch, without toylsm until the last: each builds alone
	@$(S)/host/deps.sh && $(S)/kernel/series-builds.sh

##@ test: the tests
test:		## build what is missing, run every suite: "N passed, N failed"
	@$(S)/test/test.sh

test-debug:	## every guest suite again on the KASAN/UBSAN/lockdep kernel
	@FLAVOUR=debug $(S)/test/test.sh

selftests:	## the kernel's own selftests: pristine 6.1 and the kit's kernel, case by case
	@$(S)/host/deps.sh && $(S)/test/selftests.sh

abi:		## the same LSM syscall questions to the kit kernel and mainline 6.12, two columns (CHECK=1: against the docs; BENCH=1)
	@$(S)/test/abi.sh $(if $(filter 1,$(CHECK)),--check) $(if $(filter 1,$(BENCH)),--bench) $(STACK)

mainline-tests:	## mainline 6.12's own LSM selftests, unchanged, on the reference kernel
	@$(S)/test/selftests-mainline.sh

##@ bench: the measurements
bench:		## measure syscalls and the kit loop, build/bench.md (BASELINE=1 COLD=1 TRACE=1 HOOKWALK=1)
	@$(S)/bench/bench.sh

##@ image: the container image
image:		## the kit's OCI image: Debian 12, its packages, its built kernel (BASE=IMAGE; run: scripts/image/run.sh lab 1)
	@$(S)/image/build-image.sh

image-save:	## the image as one compressed file, its SHA-256 and the pre-work lines (OUT=DIR; there: scripts/image/run.sh load FILE)
	@$(S)/image/save.sh "$${OUT:-}"

##@ bundle: a room without network
bundle:		## what a Debian 12 host without network needs, one file and its SHA-256 (OUT=FILE; there: make deps BUNDLE=FILE SHA256=DIGEST)
	@$(S)/bundle/make.sh "$${OUT:-}"

# In `make lab 3`, the 3 is the lab's number, not a target.
ifneq ($(filter lab skel lab-check,$(MAKECMDGOALS)),)
LAB_ARGS := $(filter-out lab skel lab-check,$(MAKECMDGOALS))
$(eval $(LAB_ARGS): ; @:)
endif

# Anything else: say so in plain words.
Makefile: ;
.DEFAULT:
	@echo "kit: error: there is no target '$@'. Run 'make help' for the list." >&2; exit 1
