#!/usr/bin/env bash
# A BPF program for the bpf flavour's kernel (FLAVOUR=bpf, configs/bpf.config),
# built on the host with Debian's toolchain (lab 13, make lab-check):
#
#   build.sh SRC DIR NAME
#
# SRC, BPF C that includes "vmlinux.h" and <bpf/bpf_helpers.h>, compiled
# with clang -target bpf into DIR/NAME.bpf.o, then bpftool's skeleton of
# it, DIR/NAME.skel.h, which a loader includes (the object is in it: the
# guest needs no file but the loader). vmlinux.h is the kernel's types as
# its BTF has them (bpftool btf dump), made once per built kernel:
# build/bpf/vmlinux.h, again whenever build/bpf/vmlinux is newer.
# Compiler messages go to DIR/compile.txt; the status is 1 when clang or
# bpftool refused SRC, 2 when something of this host is missing (the
# tools, the kernel's BTF: not SRC's fault, the message on stderr). The include path: vmlinux.h's folder, labs/common (the
# skeleton's placeholder, bpf_todo.h), Debian's <bpf/*.h> (libbpf-dev).
# KIT_BPF_VMLINUX: another kernel's vmlinux (its BTF).
set -uo pipefail
. "${0%/*}/../lib/lib.sh"
[ $# -eq 3 ] || die "usage: scripts/lab/bpf-build.sh SRC DIR NAME" "SRC is BPF C; DIR gets NAME.bpf.o and NAME.skel.h."
src=$1 d=$2 name=$3
host_die() { (die "$@"); exit 2; }	# die's message, status 2: the host, not SRC
vmlinux=${KIT_BPF_VMLINUX:-$(FLAVOUR=bpf flavour_dir)/vmlinux}
h=$(dirname "$vmlinux")/vmlinux.h
[ -f "$vmlinux" ] || host_die "no $(rel "$vmlinux"): BPF programs are built against the bpf flavour's BTF." \
	"Build that kernel first: make kernel FLAVOUR=bpf (docs/performance.md has its time)."
for t in clang bpftool; do
	command -v "$t" >/dev/null || host_die "$t is not installed: lab 13 builds its BPF C with Debian's clang and bpftool." \
		"As root: make deps (installs clang, llvm, bpftool, libbpf-dev, zlib1g-dev)."
done
if [ ! -s "$h" ] || [ "$vmlinux" -nt "$h" ]; then
	bpftool btf dump file "$vmlinux" format c >"$h.$$" 2>"$h.err" && mv "$h.$$" "$h" || {
		rm -f "$h.$$"
		host_die "bpftool could not dump the BTF of $(rel "$vmlinux") (messages: $(rel "$h.err"))." \
			"Is it the bpf flavour's (CONFIG_DEBUG_INFO_BTF)? make kernel FLAVOUR=bpf rebuilds it."
	}
fi
mkdir -p "$d"
rm -f "$d/$name.bpf.o" "$d/$name.skel.h"
clang -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror -I "$(dirname "$h")" \
	-I "$KIT/labs/common" -c "$src" -o "$d/$name.bpf.o" >"$d/compile.txt" 2>&1 || exit 1
bpftool gen skeleton "$d/$name.bpf.o" name "$name" >"$d/$name.skel.h.tmp" 2>>"$d/compile.txt" || {
	rm -f "$d/$name.skel.h.tmp"
	exit 1
}
mv "$d/$name.skel.h.tmp" "$d/$name.skel.h"
