#!/usr/bin/env bash
# Offline tests of the table of kernels, configs/flavours.conf, and its one
# reader, scripts/lib/flavours.sh: the table reads as the scripts expect
# it; the reader refuses a broken table, naming the line; nothing else
# reads the table; and no script derives what a flavour is from its name
# (FLAVOUR is a row's name and nothing else).  Each case is shown failing
# on a broken copy (tap.bash: sabotaged).
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"

echo "1..4"

# A scratch kit: the scripts and configs/, READER_SABOTAGE (a sed script)
# applied to its reader.
scratch() {
	rm -rf "$T/kit" && mkdir -p "$T/kit" && cp -r "$K/scripts" "$K/configs" "$T/kit/" || exit 1
	[ -z "${READER_SABOTAGE:-}" ] || sed -i "$READER_SABOTAGE" "$T/kit/scripts/lib/flavours.sh"
}
ask() {	# ask CODE: CODE run with the scratch kit's lib.sh sourced; its output and status
	# shellcheck disable=SC2016 # expanded by the inner bash
	BUILD=$T/build bash -c '. "$1/scripts/lib/lib.sh" && eval "$2"' _ "$T/kit" "$1" 2>&1
}

# 1. What the scripts read from the table, as they read it; and each
# flavour that kernel.sh installs can be booted (memory, kunit, timeout).
readcase() (
	scratch
	chk() {	# chk FLAVOUR COLUMN WANT
		local got
		got=$(ask "flavour_get $1 $2") || { echo "flavour_get $1 $2 failed: $got"; exit 1; }
		[ "$got" = "$3" ] || { echo "flavour_get $1 $2: '$got', not '$3'"; exit 1; }
	}
	chk normal tree series
	chk normal fragments kit
	chk debug memory 1G
	chk normal memory 512M
	chk lab seed normal
	chk lab-gdb seed gdb
	chk lab kunit on
	chk normal kunit off
	chk debug timeout kit.timeout_debug
	chk bpf timeout kit.timeout
	chk normal test-debug debug
	chk bpf test-debug ''
	chk mainline tree mainline
	chk baseline tree pristine
	chk series tree given
	chk callers targets ''
	chk gdb targets 'bzImage headers scripts_gdb'
	chk lab keep 40
	[ "$(ask flavour_names | paste -sd' ')" = "normal debug gdb lab lab-gdb bpf mainline baseline notrace callers series" ] ||
		{ echo "the flavours: $(ask flavour_names | paste -sd' ')"; exit 1; }
	out=$(ask 'flavour_get nosuch tree') && { echo "an unknown flavour was answered: $out"; exit 1; }
	grep -q "there is no flavour 'nosuch'" <<<"$out" || { echo "no message for an unknown flavour: $out"; exit 1; }
	out=$(ask 'flavour_get normal colour') && { echo "an unknown column was answered: $out"; exit 1; }
	exit 0
)
# shellcheck disable=SC2016 # a sed script
sabotaged "the table reads as the scripts expect it (trees, fragments, seeds, memory, KUnit, timeout word, test-debug, targets)" \
	"a reader that takes each row's cells one column to the left" readcase READER_SABOTAGE \
	's/FLAVOUR_CELL\[$name\/${cols\[i\]}\]=${cells\[i\]}/FLAVOUR_CELL[$name\/${cols[i]}]=${cells[i+1]:--}/' "flavour_get"

# 2. A broken table is refused, each error naming its line: a row with a
# column missing, an unknown tree, a fragment without its file, a seed
# or test-debug that is no row, a seed on another tree, a name twice,
# memory that QEMU does not take, another architecture.
brokencase() (
	local line l want out
	scratch
	cp "$T/kit/configs/flavours.conf" "$T/good.conf"
	while IFS= read -r line; do
		l=${line%% => *} want=${line#* => }
		cp "$T/good.conf" "$T/kit/configs/flavours.conf"
		sed -i "$l" "$T/kit/configs/flavours.conf"
		cmp -s "$T/good.conf" "$T/kit/configs/flavours.conf" && { echo "the breakage '$l' changes nothing"; exit 1; }
		out=$(ask 'flavour_get normal tree') && { echo "table broken by '$l': read without an error ($out)"; exit 1; }
		grep -qE "configs/flavours.conf:[0-9]+: .*$want" <<<"$out" ||
			{ echo "table broken by '$l': not the error '$want' with its line: $out"; exit 1; }
	done <<'EOF'
s/^\(debug .*\)| x86_64$/\1/ => column\(s\), not
s/^\(bpf *| \)series/\1patched/ => the tree 'patched'
s/^\(gdb *| [a-z]* *| kit \)gdb/\1gbd/ => the fragment 'gbd' has no file
s/^\(lab *| [a-z]* *| [a-z ]*| \)normal/\1nromal/ => its seed 'nromal' is no flavour
s/^\(bpf\( *|[^|]*\)\{7\}| \)-/\1bfp/ => its test-debug 'bfp' is no flavour
s/^\(lab *| \)series/\1mainline/ => its seed normal is built from another tree
s/^gdb /lab / => a second row named lab
s/^\(debug\( *|[^|]*\)\{4\}| \)1G/\11 GB/ => the memory '1 GB'
s/^\(normal .*| \)x86_64$/\1arm64/ => the arch 'arm64'
EOF
	exit 0
)
sabotaged "a broken table is refused, naming its line (a column missing, an unknown tree, fragment, seed or test-debug, a seed on another tree, a name twice, bad memory, another architecture)" \
	"a reader that does not check the values" brokencase READER_SABOTAGE 's/^	flavours_check$/	:/' "refused\|without an error"

# 3. Nothing reads configs/flavours.conf but its reader: no code line (a
# comment or a message may name it) of a script, suite, the Makefile, CI
# or a lab reads it as a file (sed, grep, awk, cat, source, < or a path
# made from the kit's folder, Python's open); a suite's sed -i of its
# scratch copy is an edit, not a read.  Shown failing on two seeded
# second readers.
reads() {	# reads ROOT: such lines, FILE:LINE:TEXT
	(cd "$1" && git ls-files -co --exclude-standard -- . ':!docs' ':!*.md' ':!patches' 2>/dev/null |
		grep -vxE 'scripts/lib/flavours.sh|tests/host/flavours.sh' |
		while IFS= read -r f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
		xargs -0r grep -nIE '(\$\{?[A-Za-z_]+\}?|\.\.?)/configs/flavours\.conf|(^|[;&|(`$[:space:]])(sed|grep|awk|cut|head|tail|cat|less|source|\.|python3?|perl)[[:space:]][^#;|]*flavours\.conf|<[[:space:]]*"?[^[:space:]"]*flavours\.conf|open\(.*flavours\.conf' |
		grep -vE '^[^:]*:[0-9]+:[[:space:]]*#' | grep -vE '^[^:]*:[0-9]+:.*sed -i [^|;]*flavours\.conf')
}
onereader() (
	local found
	found=$(reads "$K")
	[ -z "$found" ] || { echo "read outside scripts/lib/flavours.sh:"; echo "$found"; exit 1; }
	rm -rf "$T/r" && mkdir -p "$T/r" && cp -r "$K/scripts" "$K/tests" "$K/Makefile" "$T/r/" &&
		git -C "$T/r" init -q || exit 1
	# shellcheck disable=SC2016 # the seeded lines, as written
	printf '\tmem=$(awk -F"|" -v f="$FLAVOUR" '"'"'$1 ~ f { print $6 }'"'"' "$KIT/configs/flavours.conf")\n' >>"$T/r/scripts/guest/run-guest.sh"
	printf 'rows = open(os.path.join(KIT, "configs/flavours.conf")).read()\n' >>"$T/r/scripts/lib/walks.py"
	found=$(reads "$T/r")
	if ! grep -q '^scripts/guest/run-guest.sh:' <<<"$found" || ! grep -q '^scripts/lib/walks.py:' <<<"$found"; then
		echo "the seeded second readers were not found: '$found'"; exit 1
	fi
)
scenario "nothing reads configs/flavours.conf but scripts/lib/flavours.sh (seeded second readers in run-guest.sh and walks.py found)" onereader

# 4. FLAVOUR is a row's name: no code line derives what a flavour is from
# the name (a glob or a part of it: lab*, *gdb*, ${FLAVOUR//-/ }), as
# kernel.sh, run-guest.sh and run-boot.sh once did; the row says it.
# Shown failing on the old KUnit line of run-guest.sh, seeded.
byname() {	# byname ROOT: such lines
	(cd "$1" && grep -rnE '\$\{?FLAVOUR\}?"?[[:space:]]*(==|!=)[[:space:]]*"?[A-Za-z0-9_-]*\*|\$\{FLAVOUR(//|#|%|:[0-9])' \
		scripts Makefile .ci 2>/dev/null | grep -vE '^[^:]*:[0-9]+:[[:space:]]*#')
}
noname() (
	local found
	found=$(byname "$K")
	[ -z "$found" ] || { echo "a flavour's name taken apart:"; echo "$found"; exit 1; }
	rm -rf "$T/n" && mkdir -p "$T/n" && cp -r "$K/scripts" "$T/n/" || exit 1
	# shellcheck disable=SC2016 # the seeded line, as it was
	printf '\t[[ "$FLAVOUR" == lab* ]] || append+=" kunit.enable=0"\n' >>"$T/n/scripts/guest/run-guest.sh"
	found=$(byname "$T/n")
	grep -q '^scripts/guest/run-guest.sh:' <<<"$found" || { echo "the seeded test of the name was not found: '$found'"; exit 1; }
)
scenario "no script derives a flavour's kernel from its name, FLAVOUR is a row of the table (a seeded lab* test found)" noname
