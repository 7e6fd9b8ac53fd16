#!/usr/bin/env bash
# Offline tests of the table of host architectures, configs/arches.conf,
# and its one reader, scripts/lib/arches.sh: what lib.sh makes of each
# host's row (the guest's compiler, busybox, libraries, QEMU, gdb, the
# ccache namespace, KVM), the reader's refusals of a broken table, and
# that nothing but the reader reads the table.
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"

echo "1..4"

# scratch: a kit with the scripts and the table (TABLE_SABOTAGE,
# READER_SABOTAGE: sed scripts applied to its table, its reader first).
scratch() {
	S=$T/arches
	rm -rf "$S" && mkdir -p "$S/kit/configs" && cp -r "$K/scripts" "$S/kit/" &&
		cp "$K/configs/arches.conf" "$S/kit/configs/" || exit 1
	[ -z "${TABLE_SABOTAGE:-}" ] || sed -i "$TABLE_SABOTAGE" "$S/kit/configs/arches.conf"
	[ -z "${READER_SABOTAGE:-}" ] || sed -i "$READER_SABOTAGE" "$S/kit/scripts/lib/arches.sh"
	export BUILD=$S/build
}
# facts HOST: what lib.sh sets on HOST (KIT_HOST_ARCH), one line.
facts() {
	KIT_HOST_ARCH=$1 bash -c '. "$0/scripts/lib/lib.sh" || exit 1
		echo "$HOST_ARCH cc=$GUEST_CC cross=${CROSS_COMPILE-unset} root=${GUEST_ROOT#"$BUILD"} lib=${GUEST_LIBDIR#"$BUILD"} inc=$GUEST_ARCHINC qemu=$GUEST_QEMU gdb=$GUEST_GDB kvm=$GUEST_KVM ccache=${CCACHE_NAMESPACE-none}"' "$S/kit" 2>&1
}

# Each host's row, as lib.sh sets it: the x86_64 host's own gcc and
# busybox, KVM possible, ccache's namespace as every x86_64 clone has
# always had it; the arm64 host's cross compiler, amd64's unpacked
# packages, TCG only, a namespace of its own, gdb-multiarch.  uname's
# name finds the row as dpkg's does (a Mac says arm64, Linux aarch64).
rows() (
	scratch
	want='amd64 cc=gcc cross=unset root=/ lib=/usr/lib/x86_64-linux-gnu inc=/usr/include/x86_64-linux-gnu qemu=qemu-system-x86_64 gdb=gdb kvm=1 ccache=none'
	got=$(facts x86_64)
	[ "$got" = "$want" ] || { printf 'x86_64 host:\n got  %s\n want %s\n' "$got" "$want"; exit 1; }
	want='arm64 cc=x86_64-linux-gnu-gcc cross=x86_64-linux-gnu- root=/tools/x86_64 lib=/tools/x86_64/usr/lib/x86_64-linux-gnu inc=/usr/x86_64-linux-gnu/include qemu=qemu-system-x86_64 gdb=gdb-multiarch kvm=0 ccache=host-arm64'
	for h in aarch64 arm64; do
		got=$(facts $h)
		[ "$got" = "$want" ] || { printf '%s host:\n got  %s\n want %s\n' "$h" "$got" "$want"; exit 1; }
	done
	# deps.sh's list (make deps, the image's packages): each host's
	# toolchain, asked of the reader under set -u as deps.sh asks it.
	got=$(KIT_HOST_ARCH=arm64 BUILD=$S/build bash "$S/kit/scripts/host/deps.sh" --list 2>&1 | xargs)
	[[ " $got " == *" gcc-x86-64-linux-gnu binutils-x86-64-linux-gnu libc6-dev-amd64-cross gdb-multiarch "* ]] &&
		[[ " $got " != *" busybox-static "* ]] || { echo "deps.sh --list on arm64: $got"; exit 1; }
	got=$(KIT_HOST_ARCH=amd64 BUILD=$S/build bash "$S/kit/scripts/host/deps.sh" --list 2>&1 | xargs)
	[[ " $got " == *" busybox-static gdb "* ]] && [[ " $got " != *" gdb-multiarch "* ]] ||
		{ echo "deps.sh --list on amd64: $got"; exit 1; }
	# A CROSS_COMPILE left in the environment from other work is not
	# the kit's: the table decides.
	got=$(CROSS_COMPILE=aarch64-linux-gnu- facts x86_64)
	[[ $got == *" cross=unset "* ]] || { echo "a CROSS_COMPILE of the environment was kept: $got"; exit 1; }
	exit 0
)
sabotaged "lib.sh takes each host's guest toolchain from its row: x86_64 native, arm64 cross with amd64's packages, TCG only" \
	"a table whose arm64 row builds with the host's own gcc" rows TABLE_SABOTAGE '/^arm64 /s/| x86_64-linux-gnu- |/| - |/' \
	'^aarch64 host:'

# A broken table is an error naming its line and what is wrong, before
# anything is built; a host the table lacks gets nothing from it and an
# error only when a script asks (deps.sh, make doctor say why first).
refusals() (
	scratch
	t=$S/kit/configs/arches.conf
	cp "$t" "$S/good"
	try() {	# try SED ERE: the table edited by SED makes lib.sh die with ERE
		cp "$S/good" "$t" && sed -i "$1" "$t"
		out=$(facts aarch64)
		grep -qE -- "$2" <<<"$out" || { printf 'table edited with %s: no error matching %s:\n%s\n' "$1" "$2" "$out"; exit 1; }
	}
	try '/^arm64 /s/| gdb-multiarch |/|/' 'arches.conf:[0-9]+: 8 column\(s\), not 9'
	try '/^arm64 /s/| aarch64 | x86_64 |/| aarch64 | aarch64 |/' 'the guest .aarch64.: the kit.s guest is x86_64'
	try '/^arm64 /s/| x86_64-linux-gnu- |/| x86_64 |/' 'the cross prefix .x86_64. is no TRIPLET-'
	try '/^arm64 /s/busybox-static:amd64/busybox-static/' "the guest's package 'busybox-static' names no architecture"
	try 's/^host  | uname /host  | name /' "the columns are 'host name"
	cp "$S/good" "$t"
	out=$(facts riscv64)
	[[ $out == " cc=gcc "* ]] || { echo "a host the table lacks got a row: $out"; exit 1; }
	out=$(KIT_HOST_ARCH=riscv64 bash -c '. "$0/scripts/lib/lib.sh"; arch_get cross' "$S/kit" 2>&1)
	grep -q 'riscv64, has no row in configs/arches.conf' <<<"$out" || { echo "arch_get on a host the table lacks: $out"; exit 1; }
	exit 0
)
sabotaged "a broken table (a column missing, a guest other than x86_64, a bad prefix, a guest package without its architecture, a renamed column) is an error naming its line" \
	"a reader that checks no row's values" refusals READER_SABOTAGE 's/^\tarches_check$/\t:/' \
	'no error matching the guest'

# make doctor and deps.sh (scripts/host/host-facts.sh, bash 3.2: awk, not
# the reader) find the same row and name the route; a host the table
# lacks is refused, naming the hosts it has.
facts_sh() (
	scratch
	run() { bash -c 'KIT=$1 M=$2; . "$KIT/scripts/host/host-facts.sh"; uname() { echo "$M"; }; host_arch_row; host_arch_route; host_arch_problem' _ "$S/kit" "$1"; }
	out=$(run aarch64)
	[[ $out == "arm64 x86_64-linux-gnu-"* ]] || { echo "aarch64: the row $out"; exit 1; }
	grep -q "cross-built here with Debian's x86_64-linux-gnu-gcc" <<<"$out" || { echo "aarch64: the route not named: $out"; exit 1; }
	out=$(run x86_64)
	[ "$out" = "amd64 -
x86_64: the x86_64 guest is built with this host's own gcc" ] || { echo "x86_64: $out"; exit 1; }
	out=$(run riscv64)
	grep -q '^this is a riscv64 machine: .*x86_64 (amd64) and arm64 (aarch64)' <<<"$out" || { echo "riscv64: $out"; exit 1; }
	exit 0
)
sabotaged "make doctor's and deps.sh's reading of the table (host-facts.sh) finds each host's row and names its route" \
	"a table without the arm64 row" facts_sh TABLE_SABOTAGE '/^arm64 /d' '^aarch64: the row'

# One reader: no script but scripts/lib/arches.sh (and host-facts.sh's
# awk, for bash 3.2) opens the table (a message may name it); no script
# names the cross prefix or another host's QEMU or gdb itself.
one_reader() (
	S=$T/reader
	rm -rf "$S" && mkdir -p "$S" && cp -r "$K/scripts" "$S/" || exit 1
	[ -z "${GREP_SABOTAGE:-}" ] || sed -i "$GREP_SABOTAGE" "$S/scripts/guest/guest-cc.sh"
	bad=$(cd "$S" && grep -rnE '(\$KIT|\$\{KIT\}|\.\.)/configs/arches\.conf|ARCHES_FILE' scripts |
		grep -v '^[^:]*:[0-9]*:[[:space:]]*#' | grep -vE '^scripts/(lib/arches|host/host-facts)\.sh:')
	[ -z "$bad" ] || { echo "the table is read outside its reader: $bad"; exit 1; }
	bad=$(cd "$S" && grep -rnE 'x86_64-linux-gnu-(gcc|ld|as)|gdb-multiarch|aarch64-linux-gnu-' scripts | grep -v '^[^:]*:[0-9]*:[[:space:]]*#')
	[ -z "$bad" ] || { echo "a script names a host's toolchain itself: $bad"; exit 1; }
	exit 0
)
sabotaged "no script but the reader reads the table or names a host's toolchain" \
	"a guest-cc.sh that calls x86_64-linux-gnu-gcc" one_reader GREP_SABOTAGE 's/exec "\$GUEST_CC"/exec x86_64-linux-gnu-gcc/' \
	'names a host.s toolchain'
