#!/usr/bin/env bash
# make bench MAINLINE=1: the kit's LSM calls against mainline's, each in
# units of its own kernel's getppid().  tests/abi/lsm_side.c --bench, built
# against each kernel's UAPI headers (as make abi builds it), runs on the
# kit's kernel and on the reference kernel (FLAVOUR=mainline, Debian's
# 6.12), one boot per kernel and stack, with the same kernel command line:
# - every attribute of every module: one lsm_self_attr() on the kit, one
#   lsm_get_self_attr() per attribute (six) on mainline;
# - the module list: lsm_module_list() against lsm_list_modules().
# Each boot measures its operation and getppid() paired (ABBA), 41
# repetitions; the ratio is the median of the per-repetition ratios.  The
# mainline/kit row divides two boots' medians: not paired.
# Usage: bench-mainline.sh ROWS_FILE (bench.sh's guest rows, appended).
# The stacks: BENCH_MAINLINE_STACKS (default "smack selinux-alone").
# The answers: build/bench/mainline-abi/<flavour>-<stack>.txt.
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
. "$KIT/scripts/bench/bench-lib.sh"
rows=${1:?usage: bench-mainline.sh ROWS_FILE}
R=$BUILD/bench/mainline-abi
rm -rf "$R"
mkdir -p "$R"

[ -f "$BUILD/mainline/bzImage" ] ||
	say "bench: MAINLINE=1 and the reference kernel is not built: building it now (make mainline; the first build is 15-30 min, docs/performance.md)"
"$KIT/scripts/kernel/kernel.sh" --flavour mainline || exit 1
for fl in normal mainline; do
	FLAVOUR=$fl "$KIT/scripts/guest/guest-cc.sh" -o "$R/lsm_side-$fl" "$KIT/tests/abi/lsm_side.c" ||
		die "tests/abi/lsm_side.c does not compile against the $fl kernel's headers (above)." "Fix the first error shown."
done

clock=$(tsc_clock)
for st in ${BENCH_MAINLINE_STACKS:-smack selinux-alone}; do
	grep -qE "^${st}[[:space:]]*\|" "$KIT/configs/stacks.conf" ||
		die "BENCH_MAINLINE_STACKS names '$st', which is not a stack of configs/stacks.conf." "Name stacks that mainline boots: smack, apparmor, selinux-alone, none."
	for fl in normal mainline; do
		say "bench: $fl kernel, stack $st ($(stack_cmdline "$st")): every attribute and the module list against getppid"
		APPEND="$clock $st" "$KIT/scripts/guest/run-guest.sh" --flavour "$fl" --quiet --name "bench-abi-$fl-$st" \
			--bin "$R/lsm_side-$fl" --cmd "/kit/bin/lsm_side-$fl --bench" || {
			grep -a -v -E '^KIT-|^$' "$LOGS/guest-bench-abi-$fl-$st.out" | tail -8 >&2
			die "lsm_side --bench failed on the $fl kernel, stack $st (above); no rows are made from a partial run." \
			    "Its console log: $LOGS/guest-bench-abi-$fl-$st.log."
		}
		grep -a '^BENCH' "$LOGS/guest-bench-abi-$fl-$st.out" >"$R/$fl-$st.txt"
		grep -q '^BENCH all_attrs/getppid ' "$R/$fl-$st.txt" ||
			die "the $fl kernel, stack $st, printed no figures." "See $LOGS/guest-bench-abi-$fl-$st.out."
	done
done

# get FLAVOUR STACK NAME [FIELD]: median (3), min (4), max (5).
get() { awk -v k="$3" -v f="${4:-3}" '$1 == "BENCH" && $2 == k {print $f}' "$R/$1-$2.txt"; }
info() {
	awk -v k="$3" '$1 == "BENCH-INFO" { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) print kv[2] } }' \
		"$R/$1-$2.txt"
}
spread() { printf '%s (%s-%s)' "$(get "$1" "$2" "$3")" "$(get "$1" "$2" "$3" 4)" "$(get "$1" "$2" "$3" 5)"; }
{
	for st in ${BENCH_MAINLINE_STACKS:-smack selinux-alone}; do
		k=$(get normal "$st" all_attrs/getppid) m=$(get mainline "$st" all_attrs/getppid)
		row "every attribute, kit: one lsm_self_attr(), $(info normal "$st" entries) entries [$st]" \
			"$(spread normal "$st" all_attrs) ns; getppid $(get normal "$st" getppid@all_attrs) ns" "" \
			"$(spread normal "$st" all_attrs/getppid)x getppid"
		row "  mainline 6.12: six lsm_get_self_attr(), $(info mainline "$st" entries) entries [$st]" \
			"$(spread mainline "$st" all_attrs) ns; getppid $(get mainline "$st" getppid@all_attrs) ns" "" \
			"$(spread mainline "$st" all_attrs/getppid)x getppid"
		row "  mainline / kit, each in its own getppid" "$(awk -v a="$m" -v b="$k" 'BEGIN { printf "%.2f", a / b }')" "" \
			"two boots' medians (not paired)"
		k=$(get normal "$st" list/getppid) m=$(get mainline "$st" list/getppid)
		row "module list, kit: lsm_module_list() [$st]" \
			"$(spread normal "$st" list) ns" "" "$(spread normal "$st" list/getppid)x getppid"
		row "  mainline 6.12: lsm_list_modules() [$st]" \
			"$(spread mainline "$st" list) ns" "" "$(spread mainline "$st" list/getppid)x getppid"
		row "  mainline / kit, each in its own getppid" "$(awk -v a="$m" -v b="$k" 'BEGIN { printf "%.2f", a / b }')" "" \
			"two boots' medians (not paired)"
	done
} >>"$rows"
