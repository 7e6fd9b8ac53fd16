#!/usr/bin/env bash
# The kit's image (scripts/image/): the glue with stand-ins, offline (an
# arm64 host refused at once; this host's quirks found, not asked; the
# image's entry point seeding a checkout once), then the whole path on a
# real engine when its inputs exist: a local Debian 12 base image made
# without a registry (scripts/image/base.sh; KIT_TEST_BASE names it), and
# podman.  That case builds the image from it (make image BASE=...: the
# first time a kernel build, later the engine's layer cache), saves and
# loads it, and runs make lab 1 SOLUTION=1, make lab 10 SOLUTION=1 and
# make lab 1 on a fresh copy of this checkout with --network none, as root
# and, if the user KIT_TEST_USER (default kitroom) exists, as that user
# with rootless podman; it prints the time from a loaded image to lab 1's
# verdict and the image's size.  Heavy (a first make image builds a
# kernel): it runs only when KIT_TEST_BASE names the base image.
# kit: offline
K=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/host/tap.bash
. "$K/tests/host/tap.bash"

echo "1..22"

# scratch: a copy of the kit's scripts (and Makefile) in $T/kit, with
# stand-ins for the engine and uname in $T/bin; SAB (a sed script) is
# applied to the copy's scripts/image/engine.sh, RUNSAB to run.sh.
scratch() {
	rm -rf "${T:?}/kit" "${T:?}/bin" && mkdir -p "$T/kit" "$T/bin"
	cp -r "$K/scripts" "$K/Makefile" "$K/patches" "$K/demo-lsm" "$K/configs" "$T/kit/"
	[ -z "${SAB:-}" ] || sed -i "$SAB" "$T/kit/scripts/image/engine.sh"
	[ -z "${RUNSAB:-}" ] || sed -i "$RUNSAB" "$T/kit/scripts/image/run.sh"
	[ -z "${SAVESAB:-}" ] || sed -i "$SAVESAB" "$T/kit/scripts/image/save.sh"
	[ -z "${PINSAB:-}" ] || sed -i "$PINSAB" "$T/kit/scripts/image/pin.sh"
	# podman: logs each call; "run" fails as this host's runtime does
	# unless the flags it needs are there (FAKE_NEEDS: words).
	cat >"$T/bin/podman" <<'POD'
#!/bin/bash
echo "podman $*" >>"$FAKE_LOG"
# The image's labels (FAKE_LABELS: a file of NAME=VALUE lines), its
# architecture (FAKE_ARCH, amd64); the kit's image is there under the tags
# FAKE_TAGS ("latest"); save writes FAKE_SAVE's bytes; load reads its file.
if [ "$1 $2" = "image inspect" ]; then
	for a; do img=$a; done
	case $img in localhost/kit-lsm:*) case " ${FAKE_TAGS:-latest} " in *" ${img#*:} "*) ;; *) exit 125 ;; esac ;; esac
	case "$4" in
	*Labels*) l=${4#*\"}; l=${l%%\"*}; sed -n "s/^$l=//p" "${FAKE_LABELS:-/dev/null}"; exit 0 ;;
	*Architecture*) echo "${FAKE_ARCH:-amd64}"; exit 0 ;;
	esac
	exit 0
fi
[ "$1" = save ] && { cat "$FAKE_SAVE"; exit 0; }
[ "$1" = load ] && { cat "$3" >/dev/null; exit 0; }
[ "$1" = run ] || exit 0
# The image's entry point (scripts/image/entry.sh) refuses a container
# without a checkout at /kit, unless --entrypoint replaces it.
case " $* " in *" --entrypoint "*|*":/kit "*) ;; *) echo "kit: error: /kit is not a checkout of the kit" >&2; exit 2 ;; esac
for w in $FAKE_NEEDS; do
	case " $* " in *" $w "*) ;; *) echo "Error: runc create failed: needs $w" >&2; exit 126 ;; esac
done
exit 0
POD
	printf '#!/bin/sh\nexit 0\n' >"$T/bin/runc"
	chmod +x "$T/bin/podman" "$T/bin/runc"
	: >"$T/log"
	export FAKE_LOG=$T/log KIT_ENGINE=podman
}

# An Apple-silicon Mac (uname: arm64, Darwin): run.sh runs the arm64
# image, whichever tag it has (:arm64 from a loaded file, :latest where
# it was built), and an amd64 image loaded alone is refused, naming the
# arm64 file, before any container; a host the table lacks (riscv64) is
# refused before any engine call.  The kit before refused every arm64
# host ("x86_64 only").
arm64() {
	scratch
	printf '#!/bin/sh\ncase "$1" in -m) echo "${FAKE_M:-arm64}" ;; -s) echo Darwin ;; *) echo Darwin ;; esac\n' >"$T/bin/uname"
	chmod +x "$T/bin/uname"
	for tag in arm64 latest; do
		: >"$T/log"
		out=$(FAKE_ARCH=arm64 FAKE_TAGS=$tag PATH=$T/bin:$PATH "$T/kit/scripts/image/run.sh" lab 1 2>&1) ||
			{ echo "run.sh on arm64, the arm64 image as :$tag: $out"; exit 1; }
		grep -q "^podman run .* localhost/kit-lsm:$tag make lab 1$" "$T/log" ||
			{ echo "run.sh on arm64 did not run the arm64 image (:$tag): $(grep '^podman run' "$T/log" | tail -1)"; exit 1; }
	done
	: >"$T/log"
	out=$(FAKE_ARCH=amd64 FAKE_TAGS="latest amd64" PATH=$T/bin:$PATH "$T/kit/scripts/image/run.sh" lab 1 2>&1) &&
		{ echo "run.sh ran the amd64 image on arm64: $out"; exit 1; }
	tr -s ' \n' '  ' <<<"$out" | grep -q 'the amd64 one, and this machine is arm64 .*load kit-image-VERSION-arm64.tar.gz' ||
		{ echo "no plain message for the amd64 image on arm64: $out"; exit 1; }
	! grep -q '^podman run' "$T/log" || { echo "a container was started: $(cat "$T/log")"; exit 1; }
	: >"$T/log"
	out=$(FAKE_M=riscv64 PATH=$T/bin:$PATH "$T/kit/scripts/image/run.sh" lab 1 2>&1) && { echo "run.sh went on on riscv64: $out"; exit 1; }
	grep -q 'amd64 and arm64 hosts only' <<<"$out" || { echo "no plain riscv64 message: $out"; exit 1; }
	[ ! -s "$T/log" ] || { echo "the engine was called first on riscv64: $(cat "$T/log")"; exit 1; }
}
sabotaged "an Apple-silicon Mac: run.sh runs the arm64 image (:arm64 or :latest), refuses an amd64 image naming the arm64 file; another architecture is refused before any engine call" \
	"a run.sh that takes the default image whatever its architecture" arm64 RUNSAB 's/^KIT_IMAGE=\$PIN_IMAGE$/KIT_IMAGE=localhost\/kit-lsm:latest PIN_IMAGE_OTHER=/' 'the arm64 image as :arm64'

quirks() {
	scratch
	printf 'CapBnd:\t000001fffeffffff\n' >"$T/status"	# no CAP_SYS_RESOURCE (24)
	out=$(KIT_PROC_STATUS=$T/status FAKE_NEEDS="--ulimit runc" PATH=$T/bin:$PATH \
		"$T/kit/scripts/image/run.sh" lab 1 SOLUTION=1 2>&1) || { echo "run.sh failed: $out"; cat "$T/log"; exit 1; }
	last=$(tail -1 "$T/log")
	for w in "--runtime runc" "--ulimit nofile=" "--ulimit nproc=" "--network none" "-v $T/kit:/kit" "localhost/kit-lsm:latest make lab 1 SOLUTION=1"; do
		[[ "$last" == *"$w"* ]] || { echo "the run lacks '$w': $last"; exit 1; }
	done
	# A host without the quirks gets neither flag.
	printf 'CapBnd:\t000001ffffffffff\n' >"$T/status"
	: >"$T/log"
	KIT_PROC_STATUS=$T/status FAKE_NEEDS='' PATH=$T/bin:$PATH "$T/kit/scripts/image/run.sh" lab 1 >/dev/null 2>&1 ||
		{ echo "run.sh failed on a plain host"; exit 1; }
	last=$(tail -1 "$T/log")
	[[ "$last" != *--ulimit* && "$last" != *--runtime* ]] || { echo "a plain host got flags it does not need: $last"; exit 1; }
}
sabotaged "this host's quirks are found, not asked: runc where the default runtime fails, the current rlimits without CAP_SYS_RESOURCE; none on a plain host" \
	"an engine.sh that never tries runc" quirks SAB 's/command -v runc >\/dev\/null 2>&1 \&\&/false \&\&/' 'needs runc\|lacks .--runtime runc'

# entry.sh, the image's entry point, on a scratch checkout and seed.
entry() {
	rm -rf "$T/e" && mkdir -p "$T/e/kit/scripts/lib" "$T/e/seed/stamps" "$T/e/seed/deb" "$T/e/seed/linux"
	cp "$K/scripts/image/entry.sh" "$K/scripts/image/engine.sh" "$T/e/"
	[ -z "${ESAB:-}" ] || sed -i "$ESAB" "$T/e/entry.sh"
	: >"$T/e/kit/Makefile"; : >"$T/e/kit/scripts/lib/lib.sh"
	(cd "$T/e/seed/linux" && git init -q && echo one >f && git add f &&
		git -c user.name=t -c user.email=t@t commit -qm seed) || exit 1
	echo series-of-the-seed >"$T/e/seed/stamps/series"; echo path-bound >"$T/e/seed/stamps/kernel-normal"
	echo deb >"$T/e/seed/deb/apparmor_1_amd64.deb"
	mkdir -p "$T/e/kit/build/stamps" && echo an-older-tree >"$T/e/kit/build/stamps/series"
	run() { HOSTNAME=container-id KIT_DIR=$T/e/kit KIT_IMAGE_SEED=$T/e/seed "$T/e/entry.sh" "$@"; }
	out=$(run env 2>&1) || { echo "entry.sh failed: $out"; exit 1; }
	! grep -q '^HOSTNAME=' <<<"$out" || { echo "the command sees HOSTNAME (kernel.sh's stamp reads HOST*): $(grep ^HOSTNAME= <<<"$out")"; exit 1; }
	[ "$(git -C "$T/e/kit/build/linux" log --format=%s 2>&1)" = seed ] || { echo "build/linux is not the seed's tree"; exit 1; }
	[ "$(cat "$T/e/kit/build/stamps/series")" = series-of-the-seed ] || { echo "the stamps of an older tree were kept: $(cat "$T/e/kit/build/stamps/series")"; exit 1; }
	[ -f "$T/e/kit/build/deb/apparmor_1_amd64.deb" ] || { echo "no apparmor .deb in build/deb"; exit 1; }
	[ ! -e "$T/e/kit/build/stamps/kernel-normal" ] || { echo "a stamp that names the image's paths was copied"; exit 1; }
	echo mine >"$T/e/kit/build/linux/f"
	run true >/dev/null 2>&1 && [ "$(cat "$T/e/kit/build/linux/f")" = mine ] || { echo "a second run seeded again over the checkout's tree"; exit 1; }
	rm "$T/e/kit/Makefile"
	out=$(run make lab 1 2>&1) && { echo "no checkout at /kit, and entry.sh ran the command"; exit 1; }
	grep -q 'not a checkout of the kit' <<<"$out" || { echo "no clear error without a checkout: $out"; exit 1; }
}
sabotaged "the image's entry point: a checkout's first run gets the image's tree and its stamps, once; HOSTNAME never reaches the kit; no checkout, a clear error" \
	"an entry.sh that keeps HOSTNAME" entry ESAB '/^unset HOSTNAME$/d' 'sees HOSTNAME'

# The room through the image: run.sh keeps the attendee's room state on
# the host (mounted, KIT_ROOM_HOME) and gives the container the network
# for make join and for a checkout that joined (else none); entry.sh
# sends what waits before the container ends, and keeps the command's
# status. Before, a joined attendee's runs in the image had no network and
# their join record lived and died in the container: the room saw nothing.
room() {
	scratch
	export KIT_ROOM_HOME=$T/room
	rm -rf "$T/room"
	runlast() { PATH=$T/bin:$PATH "$T/kit/scripts/image/run.sh" "$@" >/dev/null 2>&1 || { echo "run.sh $* failed"; exit 1; }; tail -1 "$T/log"; }
	last=$(runlast lab 1)
	[[ "$last" == *"--network none"* ]] || { echo "not joined: the run has the network: $last"; exit 1; }
	[[ "$last" == *"-v $T/room:/kit-room -e KIT_ROOM_HOME=/kit-room -e KIT_ROOM_SHOWN=$T/room"* ]] || { echo "the room's state is not mounted: $last"; exit 1; }
	last=$(runlast join ROOM=http://10.0.0.1:8041 TOKEN=t NAME=n)
	[[ "$last" != *"--network none"* ]] || { echo "make join in the image has no network: $last"; exit 1; }
	echo '{}' >"$T/room/join.json"
	last=$(runlast lab 1)
	[[ "$last" != *"--network none"* ]] || { echo "a joined checkout's run has no network: its results cannot reach the room: $last"; exit 1; }
	# entry.sh: a stand-in client.py logs its calls.
	rm -rf "$T/e" && mkdir -p "$T/e/kit/scripts/room" "$T/e/kit/scripts/lib" "$T/e/kit/build/linux/.git"
	cp "$K/scripts/image/entry.sh" "$K/scripts/image/engine.sh" "$T/e/"
	: >"$T/e/kit/Makefile"; : >"$T/e/kit/scripts/lib/lib.sh"
	printf '#!/bin/sh
echo "client.py $*" >>"%s/client.log"
' "$T" >"$T/e/kit/scripts/room/client.py"
	chmod +x "$T/e/kit/scripts/room/client.py"
	: >"$T/client.log"
	KIT_DIR=$T/e/kit KIT_IMAGE_SEED=$T/none "$T/e/entry.sh" sh -c 'exit 3'; rc=$?
	[ $rc = 3 ] || { echo "entry.sh, joined, did not keep the command's status (3): $rc"; exit 1; }
	grep -qx 'client.py flush 0' "$T/client.log" || { echo "entry.sh, joined, sent nothing before the end: $(cat "$T/client.log")"; exit 1; }
	rm "$T/room/join.json" && : >"$T/client.log"
	KIT_DIR=$T/e/kit KIT_IMAGE_SEED=$T/none "$T/e/entry.sh" true
	[ ! -s "$T/client.log" ] || { echo "entry.sh, not joined, called the room's client: $(cat "$T/client.log")"; exit 1; }
	unset KIT_ROOM_HOME
}
sabotaged "the room through the image: the attendee's room state kept on the host, the network for make join and a joined checkout (none otherwise), what waits sent before the container ends" \
	"a run.sh that never gives the network" room RUNSAB 's/^\[ "\$net" = 1 \] || flags+=(--network none)$/flags+=(--network none)/' 'has no network'

# The Containerfile's steps before its last COPY (. /opt/kit/src) see only
# what the lines above them copied: each such RUN's script, and every file
# it sources or runs from scripts/ (. "$(dirname "$0")/../ROOM/F", "$KIT/scripts/ROOM/F"),
# must have been copied, and the packages step's deps.sh --list runs in a
# root made of those files alone (deps.sh once sourced a file, the host
# checks of scripts/host/host-facts.sh, that the step did not copy: the
# image's build failed at its first RUN). CSAB: a sed script applied to
# the copy of the Containerfile.
steps() {
	local cf=$T/Containerfile line w r f todo seen
	rm -rf "$T/root" && mkdir -p "$T/root"
	cp "$K/scripts/image/Containerfile" "$cf"
	[ -z "${CSAB:-}" ] || sed -i "$CSAB" "$cf"
	while IFS= read -r line; do
		read -ra w <<<"$line"
		case ${w[0]:-} in
		COPY)
			[ "${w[1]}" = . ] && break
			for f in "${w[@]:1:${#w[@]}-2}"; do
				r=${w[-1]}
				[[ $r == */ ]] && r+=${f##*/}
				mkdir -p "$T/root$(dirname "$r")"
				cp -r "$K/$f" "$T/root$r"
			done ;;
		RUN)
			todo=$(grep -o '/opt/kit/src/scripts/[A-Za-z0-9/_.-]*\.sh' <<<"$line" | sed 's|^/opt/kit/src/||')
			seen=
			while [ -n "$todo" ]; do
				r=${todo%%$'\n'*}
				[ "$r" = "$todo" ] && todo= || todo=${todo#*$'\n'}
				[[ " $seen " == *" $r "* ]] && continue
				seen+=" $r"
				[ -f "$T/root/opt/kit/src/$r" ] ||
					{ echo "the step '$line' needs $r, which no COPY above it copies"; exit 1; }
				todo+=$'\n'$(sed -n -e 's|^[[:space:]]*\. "\$(dirname "\$0")/\([A-Za-z0-9/_.-]*\)".*|'"$(dirname "$r")"'/\1|p' \
					-e 's|.*"\$KIT/\(scripts/[A-Za-z0-9/_.-]*\.sh\)".*|\1|p' "$K/$r")
				todo=$(sed '/^$/d' <<<"$todo")
			done ;;
		esac
	done <"$cf"
	bash "$T/root/opt/kit/src/scripts/host/deps.sh" --list >"$T/list" 2>&1 ||
		{ echo "deps.sh --list fails with the packages step's files alone: $(tail -2 "$T/list")"; exit 1; }
	grep -qx qemu-system-x86 "$T/list" || { echo "deps.sh --list named no qemu-system-x86: $(head -3 "$T/list")"; exit 1; }
}
sabotaged "the Containerfile's steps before the last COPY: every script they run, and what it sources, was copied; deps.sh --list runs there" \
	"a packages step that copies lib.sh and deps.sh alone" steps CSAB '/^COPY scripts\/host\/host-facts/d' 'no COPY above it copies'

# inside.sh's end removes the kit's files from the image (the attendee's
# checkout is mounted there instead): nothing after that may read one.
# It once sourced lib.sh there, and make image failed after building
# both kernels ("scripts/lib/lib.sh: No such file or directory").
# ISAB: a sed script applied to a copy of inside.sh.
afterrm() {
	local f=$T/inside.sh rm='^find "\$src" -mindepth 1 -maxdepth 1 ! -name build -exec rm -rf'
	sed -e "${ISAB:-}" "$K/scripts/image/inside.sh" >"$f"
	grep -q "$rm" "$f" || { echo "inside.sh no longer removes the kit's files as this case expects"; exit 1; }
	RM=$rm awk 'gone && /scripts\// && !/^[[:space:]]*#/ { print FNR ": " $0; bad = 1 }
		$0 ~ ENVIRON["RM"] { gone = 1 }
		END { exit bad }' "$f" || { echo "inside.sh reads the kit's files after removing them"; exit 1; }
}
# The image's kernel cache is read by another user (docker's --user):
# inside.sh's permission lines, run on a scratch cache holding a 0600
# file as Kbuild's signing_key.pem is, leave every file readable by all
# and "done" writable. PSAB: a sed script applied to those lines.
cacheperms() {
	local c=$T/kcache
	rm -rf "$c" && mkdir -p "$c/bpf-x/kbuild/certs" || exit 1
	: >"$c/bpf-x/done" && chmod 644 "$c/bpf-x/done"
	(umask 077 && echo key >"$c/bpf-x/kbuild/certs/signing_key.pem")
	# Only its chmod lines on the cache: nothing else of inside.sh runs here.
	sed -e "${PSAB:-}" "$K/scripts/image/inside.sh" |
		grep -E '^(chmod( -R)? [a-zA-Z0-9+,]+ "\$KIT_KERNEL_CACHE"|find "\$KIT_KERNEL_CACHE" -name .done. -exec chmod [0-7]+ \{\} \+)$' >"$T/perms.sh"
	grep -q chmod "$T/perms.sh" || { echo "no permission lines found in inside.sh"; exit 1; }
	KIT_KERNEL_CACHE=$c bash "$T/perms.sh" || exit 1
	[ -z "$(find "$c" -type f ! -perm -o=r)" ] || { echo "a file of the cache is unreadable by others: $(find "$c" -type f ! -perm -o=r)"; exit 1; }
	[ -n "$(find "$c/bpf-x/done" -perm -o=w)" ] || { echo "done is not writable by others"; exit 1; }
}
sabotaged "the image's kernel cache is readable by another user (docker --user), Kbuild's 0600 signing key too" \
	"inside.sh without its chmod -R a+rX" cacheperms PSAB '/chmod -R a+rX/d' 'unreadable by others'

# The image's kernels compile under the host's locale, which ccache
# hashes (LANG, LC_ALL, LC_CTYPE, LC_MESSAGES): make image passes it as
# KIT_HOST_LOCALE, and inside.sh's locale lines export it, refusing a word
# that is no locale setting.  Before, the kernel step ran with no LANG and
# missed every object of the host's ccache (LANG=C.UTF-8 here): a make
# image that found the host's ccache warm compiled both kernels in full
# (738 s and 871 s), every call a miss.  LSAB: a sed script applied to
# build-image.sh.
hostlocale() (
	local out
	scratch
	[ -z "${LSAB:-}" ] || sed -i "$LSAB" "$T/kit/scripts/image/build-image.sh"
	# An engine whose every call works (the probes, the build): logged.
	printf '#!/bin/bash\necho "podman $*" >>"$FAKE_LOG"\n[ "$1 $2" != "image inspect" ] || echo 4172000000\nexit 0\n' >"$T/bin/podman"
	out=$(cd "$T/kit" && PATH=$T/bin:$PATH LANG=C.UTF-8 LC_MESSAGES=C BUILD=$T/kit/build \
		scripts/image/build-image.sh 2>&1) || { echo "build-image.sh with the stand-in engine: $out" | tail -5; exit 1; }
	grep -q -- '--build-arg KIT_HOST_LOCALE=LANG=C.UTF-8 LC_MESSAGES=C ' "$T/log" ||
		{ echo "make image passes no host locale: $(grep -m1 ' build ' "$T/log")"; exit 1; }
	grep -q '^ARG KIT_HOST_LOCALE=$' "$K/scripts/image/Containerfile" ||
		{ echo "the Containerfile declares no KIT_HOST_LOCALE"; exit 1; }
	# Only inside.sh's locale lines: nothing else of it runs here.
	sed -n '/^unset LANG LC_ALL LC_CTYPE LC_MESSAGES$/,/^export PERL_BADLANG=0$/p' "$K/scripts/image/inside.sh" >"$T/locale.sh"
	grep -q '^export PERL_BADLANG=0$' "$T/locale.sh" || { echo "no locale lines found in inside.sh"; exit 1; }
	printf '\nsay() { echo "kit: $*"; }\n' | cat - "$T/locale.sh" >"$T/locale2.sh"
	out=$(env -i PATH=/usr/bin:/bin LANG=en_GB.UTF-8 KIT_HOST_LOCALE='LANG=C.UTF-8 LC_MESSAGES=C' \
		bash -c '. "$1" && env' _ "$T/locale2.sh" 2>&1 | grep -E '^(LANG|LC_|PERL_BADLANG)' | sort | paste -sd' ')
	[ "$out" = "LANG=C.UTF-8 LC_MESSAGES=C PERL_BADLANG=0" ] || { echo "inside.sh's locale: '$out'"; exit 1; }
	rm -f "$T/pwned"
	out=$(env -i PATH=/usr/bin:/bin KIT_HOST_LOCALE="LANG=C;touch $T/pwned" bash -c '. "$1"' _ "$T/locale2.sh" 2>&1) &&
		{ echo "a bad KIT_HOST_LOCALE was taken: $out"; exit 1; }
	[ ! -e "$T/pwned" ] && grep -q 'is no locale setting' <<<"$out" || { echo "a bad KIT_HOST_LOCALE: '$out'"; exit 1; }
)
sabotaged "make image's kernels compile under the host's locale, which ccache hashes (a bad value refused)" \
	"a build-image.sh that passes no locale" hostlocale LSAB '/KIT_HOST_LOCALE=/d' 'passes no host locale'

# shellcheck disable=SC2016 # the seeded line, as written
sabotaged "inside.sh reads nothing of the kit's files after it removes them from the image" \
	"an inside.sh that sources lib.sh after the removal" afterrm ISAB '/^for d in \$guest_debs/i guest_debs=$(. scripts/lib/lib.sh \&\& arch_get debs)' 'after removing them'

# The pin (scripts/image/pin.sh): labels of the kit's commit, version and
# the digest of its kernels' sources, as make image writes them for this
# scratch checkout.  pinned [SOURCES]: FAKE_LABELS for the stand-in.
pinned() {
	. "$T/kit/scripts/image/pin.sh"
	printf '%s\n' "org.opencontainers.image.revision=0123456789abcdef0123456789abcdef01234567" \
		"org.opencontainers.image.version=v1.0" "lsm-kit.kernel-sources=$(pin_sources "$T/kit")" \
		"lsm-kit.packages=$(pin_packages "$T/kit")" "lsm-kit.dirty=no" >"$T/labels"
	export FAKE_LABELS=$T/labels
}

# make image-save: a compressed file, its SHA-256 beside it, both sizes
# said, the pre-work lines (the clone at the image's version, the file,
# its size and digest).  Before: an uncompressed tar unless named .gz, no
# digest, no lines, and only the file's size.
save() {
	scratch && pinned
	head -c 300000 /dev/zero >"$T/saved" && export FAKE_SAVE=$T/saved
	rm -rf "$T/out" && mkdir -p "$T/out"
	out=$(cd "$T/kit" && PATH=$T/bin:$PATH KIT_CLONE_URL=https://example.org/kit.git make -s image-save OUT="$T/out" 2>&1) ||
		{ echo "make image-save failed: $out"; exit 1; }
	f=$T/out/kit-image-v1.0-amd64.tar.gz
	[ -f "$f" ] || { echo "no $f: $(ls "$T/out")"; exit 1; }
	gzip -t "$f" 2>/dev/null || { echo "$f is not gzip"; exit 1; }
	sum=$(sha256sum <"$f" | cut -d' ' -f1)
	[ "$(cat "$f.sha256" 2>/dev/null)" = "$sum  kit-image-v1.0-amd64.tar.gz" ] || { echo "no .sha256 with the file's digest beside it"; exit 1; }
	grep -qE '[0-9]+ MB compressed \(0 MB as the engine saves it\)' <<<"$out" && grep -q "SHA-256 $sum" <<<"$out" ||
		{ echo "the sizes and the digest are not said: $out"; exit 1; }
	# raw: 300000 bytes; the line says MB: check the exact count in the lines file instead.
	pw=$T/out/prework-v1.0.txt
	grep -q 'git clone https://example.org/kit.git lsm-kit && cd lsm-kit && git checkout v1.0' "$pw" &&
		grep -q "kit-image-v1.0-amd64.tar.gz: [0-9]* MB, SHA-256 $sum" "$pw" &&
		grep -q 'scripts/image/run.sh load ' "$pw" || { echo "the pre-work lines lack the clone, the file or its digest:"; cat "$pw"; exit 1; }
	# A name that is no .tar.gz: refused, nothing written.
	out=$(cd "$T/kit" && PATH=$T/bin:$PATH make -s image-save OUT="$T/out/img.tar" 2>&1) && { echo "OUT=img.tar was taken"; exit 1; }
	[ ! -e "$T/out/img.tar" ] || { echo "img.tar was written"; exit 1; }
}
sabotaged "make image-save: a compressed file, its SHA-256 beside it, both sizes said, the pre-work email's lines (clone at the image's version, file, size, digest)" \
	"a save.sh that writes no .sha256" save SAVESAB 's/^\tprintf .%s  %s\\n. "\$sum" "\$name" >"\$o.sha256"$/\t:/' 'no .sha256'

# run.sh load FILE: the digest checked before the engine loads anything.
load() {
	scratch && pinned
	head -c 5000 /dev/urandom >"$T/img.tar.gz"
	(cd "$T" && sha256sum img.tar.gz >img.tar.gz.sha256)
	out=$(PATH=$T/bin:$PATH "$T/kit/scripts/image/run.sh" load "$T/img.tar.gz" 2>&1) || { echo "a good file was refused: $out"; exit 1; }
	grep -q "podman load -i $T/img.tar.gz" "$T/log" || { echo "not loaded: $(cat "$T/log")"; exit 1; }
	grep -q 'this checkout boots its kernels; next: scripts/image/run.sh lab 1' <<<"$out" || { echo "no next step after the load: $out"; exit 1; }
	: >"$T/log"
	printf 'X' | dd of="$T/img.tar.gz" bs=1 seek=100 conv=notrunc status=none
	out=$(PATH=$T/bin:$PATH "$T/kit/scripts/image/run.sh" load "$T/img.tar.gz" 2>&1) && { echo "a damaged file was loaded: $out"; exit 1; }
	grep -q 'is not the file expected: its SHA-256 is' <<<"$out" || { echo "no digest message: $out"; exit 1; }
	! grep -q 'podman load' "$T/log" || { echo "the engine loaded the damaged file"; exit 1; }
	rm "$T/img.tar.gz.sha256"
	out=$(PATH=$T/bin:$PATH "$T/kit/scripts/image/run.sh" load "$T/img.tar.gz" 2>&1) && { echo "a file with no digest was loaded"; exit 1; }
	! grep -q 'podman load' "$T/log" || { echo "the engine loaded a file with no digest"; exit 1; }
}
sabotaged "run.sh load FILE: the SHA-256 beside it checked before the engine loads it; a damaged file or none refused" \
	"a run.sh load without the digest" load RUNSAB 's/^\thanded_file "\$2".*/:/' 'was loaded'

# The pin compared: a checkout whose kernel sources differ from the
# image's stops before the container, naming the image's version to check
# out and the build to accept (KIT_IMAGE_BUILD=1, remembered); the same
# sources run.  Before, the container started and built the kernels.
pin() {
	scratch && pinned
	r() { PATH=$T/bin:$PATH "$T/kit/scripts/image/run.sh" "$@" 2>&1; }
	out=$(r lab 1) || { echo "the image's own sources were refused: $out"; exit 1; }
	grep -q ' run .*make lab 1' "$T/log" || { echo "no container run: $(cat "$T/log")"; exit 1; }
	echo '# a change' >>"$T/kit/patches/series"
	: >"$T/log"
	out=$(r lab 1) && { echo "a checkout with other kernel sources ran: $out"; exit 1; }
	tr -s ' \n' '  ' <<<"$out" | grep -qE "kernel sources are not the image.s.*the kit at v1.0 \(commit 0123456789abcdef.*git checkout v1\.0.*KIT_IMAGE_BUILD=1" ||
		{ echo "not the advice: $out"; exit 1; }
	! grep -q ' run .*make lab 1' "$T/log" || { echo "the container ran"; exit 1; }
	out=$(KIT_IMAGE_BUILD=1 r lab 1) || { echo "KIT_IMAGE_BUILD=1 was refused: $out"; exit 1; }
	out=$(r lab 1) || { echo "the accepted build was not remembered: $out"; exit 1; }
	grep -q 'accepted before' <<<"$out" || { echo "no word of the accepted build: $out"; exit 1; }
	# A checkout that needs a package the image lacks (the container would
	# try apt-get, offline, and fail): stopped, the package named.  Found
	# for real: a checkout with libssl-dev in deps.sh, an image without.
	sed -i 's/^lsm-kit.packages=\(.*\) libssl-dev /lsm-kit.packages=\1 /' "$T/labels"
	grep -q '^lsm-kit.packages=.*libelf-dev' "$T/labels" && ! grep -q 'libssl-dev' "$T/labels" || { echo "the stand-in's labels: $(cat "$T/labels")"; exit 1; }
	: >"$T/log"
	out=$(r lab 1) && { echo "a checkout that needs libssl-dev ran on an image without it: $out"; exit 1; }
	tr -s ' \n' '  ' <<<"$out" | grep -qE 'needs Debian packages that the image .*does not have: libssl-dev.*git checkout v1\.0' ||
		{ echo "not the advice: $out"; exit 1; }
	! grep -q ' run .*make lab 1' "$T/log" || { echo "the container ran"; exit 1; }
	# The arm64 image named on this x86_64 machine (KIT_IMAGE, run under
	# qemu-user): its packages are arm64's, and the checkout is compared
	# with what it needs there, not here.  Found for real: the arm64
	# image refused for lacking amd64's busybox-static and gdb.
	pinned
	sed -i "s/^lsm-kit.packages=.*/lsm-kit.packages=$(pin_packages "$T/kit" arm64)/" "$T/labels"
	: >"$T/log"
	out=$(FAKE_ARCH=arm64 FAKE_TAGS="latest arm64" KIT_IMAGE=localhost/kit-lsm:arm64 r lab 1) ||
		{ echo "the arm64 image, named on an amd64 host, was refused: $out"; exit 1; }
	grep -q ' run .*--platform linux/arm64.*make lab 1' "$T/log" || { echo "no arm64 container run: $(cat "$T/log")"; exit 1; }
	# An image without the pin: said, not guessed.
	: >"$T/labels"
	out=$(r lab 1) && grep -q 'carries no digest' <<<"$out" || { echo "an image without labels: $out"; exit 1; }
}
sabotaged "run.sh: a checkout whose kernel sources differ from the image's, or that needs a package it lacks, stops before the container, with the image's version to check out (or the build to accept)" \
	"a pin that compares nothing" pin PINSAB 's/^\telse PIN_STATE=differ$/else PIN_STATE=same/' 'ran:'

# KVM: the device and the group that opens it.  A rootful docker runs as
# the user (--user), whose process has no supplementary group: without
# --group-add the device's group, the container could not open /dev/kvm.
kvm() {
	scratch
	sed 's/^echo "podman /echo "docker /' "$T/bin/podman" >"$T/bin/docker" && chmod +x "$T/bin/docker"
	printf '#!/bin/sh\ncase "$1" in -u|-g) echo 4242 ;; -un) echo alice ;; *) exec /usr/bin/id "$@" ;; esac\n' >"$T/bin/id"
	chmod +x "$T/bin/id"
	: >"$T/kvm" && chmod 660 "$T/kvm" && chgrp 4243 "$T/kvm"
	out=$(KIT_ENGINE=docker KIT_KVM_DEV=$T/kvm PATH=$T/bin:$PATH "$T/kit/scripts/image/run.sh" lab 1 2>&1) || { echo "run.sh failed: $out"; exit 1; }
	last=$(tail -1 "$T/log")
	[[ "$last" == *"--user 4242:4242"* ]] || { echo "a rootful docker's run is not the user's: $last"; exit 1; }
	[[ "$last" == *"--device $T/kvm:/dev/kvm"* ]] || { echo "no KVM device: $last"; exit 1; }
	[[ "$last" == *"--group-add 4243"* ]] || { echo "the KVM device without its group (4243): $last"; exit 1; }
	chmod 000 "$T/kvm"
	: >"$T/log"
	if [ "$(id -u)" != 0 ]; then
		KIT_ENGINE=docker KIT_KVM_DEV=$T/kvm PATH=$T/bin:$PATH "$T/kit/scripts/image/run.sh" lab 1 >/dev/null 2>&1
		[[ "$(tail -1 "$T/log")" != *"/dev/kvm"* ]] || { echo "a device the user cannot open was passed"; exit 1; }
	fi
}
sabotaged "KVM in the image: the device passed with the group that opens it (docker as the user: --group-add)" \
	"a run.sh that passes the device alone" kvm RUNSAB 's/^\t\tflags+=(--group-add "\$(stat -c %g "\$kvm")")$/:/' 'without its group'

# A checkout on a filesystem that folds case (tests/host/casefold.py, a
# FUSE stand-in for macOS's APFS or a WSL2 drive): the 6.1 tree's pairs of
# paths that differ only in case would be one file there.  run.sh keeps
# such a checkout's build/ in a volume of the engine's; entry.sh refuses a
# build/ that folds (it seeded the tree there, one of each pair lost).
casefold() {
	scratch
	mkdir -p "$T/cfb" "$T/cf"
	"$K/tests/host/casefold.py" "$T/cfb" "$T/cf" || { echo "the case-folding filesystem did not mount"; exit 1; }
	trap 'fusermount -u "$T/cf" 2>/dev/null' EXIT
	echo probe >"$T/cf/Probe" && [ "$(cat "$T/cf/PROBE")" = probe ] || { echo "the stand-in folds no case"; exit 1; }
	cp -r "$T/kit" "$T/cf/kit"
	out=$(PATH=$T/bin:$PATH "$T/cf/kit/scripts/image/run.sh" lab 1 2>&1) || { echo "run.sh failed: $out"; exit 1; }
	last=$(tail -1 "$T/log")
	[[ "$last" =~ -v\ kit-build-[0-9a-f]{12}:/kit/build ]] || { echo "build/ is on the checkout's case-folding filesystem: $last"; exit 1; }
	grep -q 'folds case: its build/ is kept in podman.s volume kit-build-' <<<"$out" || { echo "not said: $out"; exit 1; }
	# entry.sh on a build/ that folds case: refused, nothing seeded.
	rm -rf "$T/e" && mkdir -p "$T/e/seed/linux/include" "$T/cf/ekit/scripts/lib"
	cp "$K/scripts/image/entry.sh" "$K/scripts/image/engine.sh" "$T/e/"
	[ -z "${ESAB:-}" ] || sed -i "$ESAB" "$T/e/entry.sh"
	: >"$T/cf/ekit/Makefile"; : >"$T/cf/ekit/scripts/lib/lib.sh"
	echo mark >"$T/e/seed/linux/include/xt_CONNMARK.h"; echo match >"$T/e/seed/linux/include/xt_connmark.h"
	(cd "$T/e/seed/linux" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm seed) || exit 1
	out=$(KIT_DIR=$T/cf/ekit KIT_IMAGE_SEED=$T/e/seed "$T/e/entry.sh" true 2>&1) &&
		{ echo "entry.sh seeded a build/ that folds case ($(find "$T/cf/ekit/build/linux/include" -mindepth 1 -printf '%f ' 2>&1)): $out"; exit 1; }
	grep -q 'folds case' <<<"$out" || { echo "entry.sh failed on a build/ that folds case without saying why: $out"; exit 1; }
	[ ! -e "$T/cf/ekit/build/linux" ] || { echo "a tree was copied"; exit 1; }
}
CF="a checkout on a filesystem that folds case: build/ kept in a volume of the engine's, and entry.sh refuses a build/ that folds"
if [ "$(id -u)" = 0 ] && [ -c /dev/fuse ] && /usr/bin/python3 -c 'import fuse' 2>/dev/null; then
	sabotaged "$CF" "an entry.sh that seeds whatever build/ is" casefold ESAB 's/^if folds_case "\$KIT\/build"; then$/if false; then/' 'seeded a build/ that folds\|without saying why'
else
	skip "$CF" "needs root, /dev/fuse and Debian's python3-fuse (tests/host/casefold.py mounts the stand-in)"
fi

# ---- other engines and hosts, for real, from make image-save's file -------
# KIT_TEST_IMAGE_FILE: make image-save's file (its .sha256 beside it);
# KIT_TEST_LABS: the labs the docker case runs solved (default 1 10 13).
# KIT_TEST_DOCKER=1: Debian's docker.io, its dockerd started here as root
# (no iptables, no bridge: --network none needs neither) on a socket and
# data folder of its own, then stopped; the labs as root, then as
# KIT_TEST_USER (default kitroom) through the socket's group (docker).
# KIT_TEST_TRIXIE=ROOT: a Debian 13 root made with debootstrap (with podman,
# docker.io, docker-cli, runc, uidmap, make and git in it), entered with
# chroot: with its podman, then with its docker, make doctor there routes
# to the image, run.sh load, then lab 1 passes.
IMG=${KIT_TEST_IMAGE_FILE:-}
U=${KIT_TEST_USER:-kitroom}
# fresh DIR: a copy of this checkout's files as they are now, no build/:
# what an attendee has after git clone.
fresh() {
	mkdir -p "$1" && tar -C "$K" --exclude=./build --exclude=./.git -cf - . | tar -C "$1" -xf -
}
# timed NAME CMD...: CMD, its time and status as a figure line.
timed() {
	local n=$1 t=$SECONDS rc=0
	shift
	"$@" >"$T/timed.out" 2>&1 || rc=$?
	echo "$n: $((SECONDS - t)) s, status $rc" | tee -a "$T/figures"
	return $rc
}
figures() {
	[ -s "$T/figures" ] && diag <"$T/figures"
	rm -f "$T/figures"
}
# dockerlabs DIR [USER]: load, then lab 1, 10, 13 solved and why, with
# --network none (run.sh's), from checkout DIR, as root or USER.
dockerlabs() {
	local dir=$1 user=${2:-} a
	din() {
		if [ -n "$user" ]; then
			su "$user" -s /bin/bash -c 'cd "$1" && shift && PATH=/usr/bin:$PATH DOCKER_HOST=$DH KIT_ENGINE=docker "$@"' -- _ "$dir" "$@" </dev/null
		else
			(cd "$dir" && PATH=/usr/bin:$PATH DOCKER_HOST=$DH KIT_ENGINE=docker "$@" </dev/null)
		fi
	}
	export DH
	for a in ${KIT_TEST_LABS:-1 10 13}; do
		a="lab $a SOLUTION=1"
		# shellcheck disable=SC2086 # a: words
		timed "${user:-root}: run.sh $a" din scripts/image/run.sh $a || { tail -15 "$T/timed.out"; exit 1; }
		! grep -q 'building kernel' "$T/timed.out" || { echo "a kernel was compiled for $a"; exit 1; }
	done
	# The walkthrough's traced open (docs/walkthrough.md, pic-traced-open).
	timed "${user:-root}: run.sh why (the walkthrough's traced open)" din scripts/image/run.sh why \
		'SETUP=(echo WhySecret > /proc/self/attr/smack/current && echo secret > /tmp/secret)' \
		'CMD=su kit -c "cat /tmp/secret"' 'WHY=-v -c cat -s openat' || true
	grep -q 'refused by smack in inode_permission: EACCES' "$T/timed.out" ||
		{ echo "make why did not name Smack's refusal:"; tail -15 "$T/timed.out"; exit 1; }
	din bash -x scripts/image/run.sh help >"$T/x.out" 2>&1 || { tail -5 "$T/x.out"; exit 1; }
	grep -m1 '^+ exec docker run .* --network none .*make help' "$T/x.out" >/dev/null ||
		{ echo "the container's run is not --network none: $(grep -m1 'exec docker run' "$T/x.out")"; exit 1; }
}
if [ -z "$IMG" ] || [ -z "${KIT_TEST_DOCKER:-}" ] || ! command -v dockerd >/dev/null 2>&1; then
	for c in "docker as root" "docker as a user of the docker group"; do
		skip "$c: load, lab 1, 10, 13 and why, --network none" "KIT_TEST_IMAGE_FILE (make image-save's file) and KIT_TEST_DOCKER=1 are not both set, or no dockerd (apt-get install docker.io)"
	done
else
	DR=$T/docker DH=unix://$T/docker.sock
	dockerup() {
		mkdir -p "$DR"
		dockerd --iptables=false --bridge=none --data-root "$DR/data" --exec-root "$DR/exec" \
			--pidfile "$DR/pid" -H "$DH" -G docker >"$DR/log" 2>&1 &
		echo $! >"$DR/started"
		for _ in $(seq 60); do PATH=/usr/bin:$PATH DOCKER_HOST=$DH docker info >/dev/null 2>&1 && return 0; sleep 1; done
		tail -5 "$DR/log"; return 1
	}
	dockerdown() { [ -f "$DR/started" ] && kill "$(cat "$DR/started")" 2>/dev/null; sleep 3; rm -rf "$DR"; }
	trap 'dockerdown; rm -rf "$T"' EXIT
	root_docker() {
		dockerup || { echo "dockerd did not start"; exit 1; }
		fresh "$T/dkit"
		(cd "$T/dkit" && PATH=/usr/bin:$PATH DOCKER_HOST=$DH KIT_ENGINE=docker timed "docker: run.sh load (the digest checked, then docker load)" scripts/image/run.sh load "$IMG") ||
			{ tail -5 "$T/timed.out"; exit 1; }
		echo "docker's storage after the load: $(du -sm "$DR/data" | cut -f1) MB ($(PATH=/usr/bin:$PATH DOCKER_HOST=$DH docker info --format '{{.Driver}}'))" | tee -a "$T/figures"
		dockerlabs "$T/dkit"
	}
	scenario "docker as root (Debian's docker.io $(dpkg-query -W -f='${Version}' docker.io 2>/dev/null)): load, lab 1, 10, 13 and why, --network none" root_docker
	figures
	group_docker() {
		id "$U" >/dev/null 2>&1 || { echo "no user $U (useradd -m $U, or KIT_TEST_USER=NAME)"; exit 1; }
		id -nG "$U" | grep -qw docker || { echo "$U is not in the docker group (as root: usermod -aG docker $U)"; exit 1; }
		h=$(getent passwd "$U" | cut -d: -f6)
		rm -rf "$h/kit-docker" && fresh "$h/kit-docker" && chown -R "$U:" "$h/kit-docker"
		chmod 711 "$T"
		dockerlabs "$h/kit-docker" "$U"
		[ -z "$(find "$h/kit-docker" ! -user "$U" -print -quit)" ] || { echo "the container left files in the checkout that are not $U's"; exit 1; }
		rm -rf "$h/kit-docker"
	}
	scenario "docker as $U, a user of the docker group: lab 1, 10, 13 and why, --network none; the checkout stays the user's" group_docker
	figures
	dockerdown
	trap 'rm -rf "$T"' EXIT
fi

TRIXIE_CASES=("Debian 13 (trixie, its podman 5): make doctor routes to the image, run.sh load, lab 1 passes"
	"Debian 13 (trixie, its docker.io 26): make doctor routes to the image, run.sh load, lab 1 passes")
if [ -z "$IMG" ] || [ -z "${KIT_TEST_TRIXIE:-}" ]; then
	for c in "${TRIXIE_CASES[@]}"; do
		skip "$c" "KIT_TEST_IMAGE_FILE and KIT_TEST_TRIXIE (a Debian 13 root: debootstrap --variant=minbase --include=podman,docker.io,docker-cli,runc,uidmap,make,git trixie ROOT) are not both set"
	done
else
	R=$KIT_TEST_TRIXIE
	# trixie_up: the root entered as a host is (its own /proc, /sys,
	# /dev, an empty /run and /tmp), a fresh checkout in it at /root/kit
	# and the image's file at /root/img; undone when the case ends.
	trixie_up() {
		local m
		grep -q 'VERSION_ID="13"' "$R/etc/os-release" || { echo "$R is not Debian 13"; exit 1; }
		for m in proc sys dev run tmp; do mkdir -p "$R/$m"; done
		# The root a mount point of its own: podman's storage remounts
		# "/" when it unpacks a layer ("remount /, flags: 0x44000:
		# invalid argument" in a plain chroot).
		mount --bind "$R" "$R" && mount -t proc proc "$R/proc" && mount --rbind /sys "$R/sys" && mount --rbind /dev "$R/dev" &&
			mount -t tmpfs tmpfs "$R/run" && mount -t tmpfs tmpfs "$R/tmp" || { echo "mounts failed"; exit 1; }
		trap 'trixie_down' EXIT
		rm -rf "$R/root/kit" && fresh "$R/root/kit"
		mkdir -p "$R/root/img" && cp "$IMG" "$IMG.sha256" "$R/root/img/"
	}
	trixie_down() {
		local p
		if [ -s "$R/run/kit-dockerd.pid" ]; then
			p=$(cat "$R/run/kit-dockerd.pid")
			kill "$p" 2>/dev/null
			for _ in $(seq 30); do kill -0 "$p" 2>/dev/null || break; sleep 1; done
		fi
		# dockerd binds its data folder onto itself, and leaves it so.
		umount -R "$R/var/lib/kit-docker" 2>/dev/null
		umount -R "$R/proc" "$R/sys" "$R/dev" "$R/run" "$R/tmp" 2>/dev/null
		rm -rf "$R/root/kit" "$R/root/img" "$R/var/lib/kit-docker"
		umount -R "$R" 2>/dev/null
	}
	# trixie_left: the case's end: the root as it was before (no mount in
	# it, no checkout, file or docker data left; the image removed from
	# its podman by the case).  Before, a run left dockerd's mount (the
	# root's own bind busy), the image's file and 4 GB of podman storage.
	trixie_left() {
		local m
		trixie_down
		trap - EXIT
		m=$(findmnt -rn -o TARGET | awk -v r="$R" '$0 == r || index($0, r "/") == 1')
		[ -z "$m" ] || { echo "mounts left in the root: $m"; exit 1; }
		for m in root/kit root/img var/lib/kit-docker; do
			[ ! -e "$R/$m" ] || { echo "left in the root: $m"; exit 1; }
		done
	}
	# ch CMD: CMD in the root, from the checkout, with a clean environment
	# (ENV: words of NAME=VALUE added to it).
	ch() {
		# shellcheck disable=SC2086 # ENV: words
		chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=dumb PODMAN_IGNORE_CGROUPSV1_WARNING=1 ${ENV:-} bash -c "cd /root/kit && $1"
	}
	# trixie_labs ENGINE: make doctor sends a host without the image to
	# run.sh load, the load checks the digest, then doctor is READY with
	# run.sh's next step and lab 1 passes with no kernel compiled.
	trixie_labs() {
		local out
		out=$(ch 'make doctor' 2>&1 | tr -s ' \n' '  ')
		grep -q "is not Debian 12: the kit runs here in its container image, with $1" <<<"$out" &&
			grep -q "FIX image the kit.s image (amd64) is not loaded in $1: scripts/image/run.sh load" <<<"$out" ||
			{ echo "make doctor before the load:"; echo "$out"; exit 1; }
		timed "trixie, $1: run.sh load" ch "scripts/image/run.sh load /root/img/$(basename "$IMG")" || { tail -8 "$T/timed.out"; exit 1; }
		out=$(ch 'make doctor' 2>&1 | tr -s ' \n' '  ') || { echo "make doctor after the load:"; echo "$out"; exit 1; }
		grep -q 'READY: .*Next: scripts/image/run.sh lab 1' <<<"$out" || { echo "not READY with run.sh's next step: $out"; exit 1; }
		timed "trixie, $1: run.sh lab 1 SOLUTION=1" ch 'scripts/image/run.sh lab 1 SOLUTION=1' || { tail -15 "$T/timed.out"; exit 1; }
		! grep -q 'building kernel' "$T/timed.out" || { echo "a kernel was compiled for lab 1"; exit 1; }
	}
	trixie() {
		[ -x "$R/usr/bin/podman" ] || { echo "$R has no podman"; exit 1; }
		trixie_up
		echo "podman in it: $(ch 'podman --version')" | tee -a "$T/figures"
		trixie_labs podman
		# Every tag the load gave (:amd64 and :latest), then its layers.
		ch 'podman images -q --filter reference=localhost/kit-lsm | sort -u | xargs -r podman rmi -f; podman system prune -f' >/dev/null 2>&1
		[ -z "$(ch 'podman images -q --filter reference=localhost/kit-lsm' 2>/dev/null)" ] ||
			{ echo "the image is still in the root's podman"; exit 1; }
		trixie_left
	}
	scenario "${TRIXIE_CASES[0]}" trixie
	figures
	# Its docker: dockerd started in the root as the test's docker case
	# starts this host's (no iptables, no bridge), on a socket and data
	# folder of its own.
	trixie_docker() {
		[ -x "$R/usr/sbin/dockerd" ] && [ -x "$R/usr/bin/docker" ] || { echo "$R has no dockerd and docker (docker.io, docker-cli)"; exit 1; }
		trixie_up
		ENV="KIT_ENGINE=docker DOCKER_HOST=unix:///run/kit-docker.sock"
		echo "docker in it: $(ch 'docker --version')" | tee -a "$T/figures"
		ch 'dockerd --iptables=false --bridge=none --data-root /var/lib/kit-docker -H unix:///run/kit-docker.sock \
			--pidfile /run/kit-dockerd.pid >/run/kit-dockerd.log 2>&1 &'
		for _ in $(seq 60); do ch 'docker info' >/dev/null 2>&1 && break; sleep 1; done
		ch 'docker info' >/dev/null 2>&1 || { echo "its dockerd did not start:"; tail -5 "$R/run/kit-dockerd.log"; exit 1; }
		trixie_labs docker
		trixie_left
	}
	scenario "${TRIXIE_CASES[1]}" trixie_docker
	figures
	trap 'rm -rf "$T"' EXIT
fi

# ---- the arm64 image, for Apple silicon and arm64 Linux (issue 51) -------
# KIT_TEST_ARM64=1: podman holds localhost/kit-lsm:arm64 (make image
# ARCHES=arm64; run.sh load of its file).  On this x86_64 machine it runs
# under qemu-user (binfmt_misc): run.sh gives an image of another
# architecture --platform linux/ARCH, and --network none as always.  From
# a fresh checkout: the container is aarch64; lab 1, 10 and 13 solved and
# the skeleton's lab 1 end as they do here natively on amd64 (the same
# verdict, steps and boots' step results, read from each run's record,
# build/labs/NN/last-run.json), with no kernel compiled in the container.
# The native runs build or take this host's kernels (make test's).  Each
# arm64 boot gets KIT_TEST_ARM64_TIMEOUT s (600): found for real, lab 1's
# boots under double emulation passed lab.sh's 90 s ("the guest hung").
ARM64_CASE="the arm64 image under emulation (--platform linux/arm64, --network none): lab 1, 10 and 13 solved and lab 1's skeleton give amd64's verdicts, no kernel compiled"
# verdicts DIR NN: a run's outcome as data, from its record: the verdict,
# the steps passed, and each boot's step results.
verdicts() {
	python3 - "$1/build/labs/$2/last-run.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print('verdict %s, %s of %s steps passed, failed %s' % (r['verdict'], r['passed'], r['steps'], r['failed_steps']))
for b in r['boots']:
    print('  boot %s: %s' % (b['name'], ' '.join('%s:%s' % (s['step'], s['result']) for s in b['steps'])))
PY
}
if [ -z "${KIT_TEST_ARM64:-}" ]; then
	skip "$ARM64_CASE" "KIT_TEST_ARM64 is not set (podman with localhost/kit-lsm:arm64: make image ARCHES=arm64, docs/image.md; on x86_64, qemu-user-static and binfmt_misc)"
elif ! podman image exists localhost/kit-lsm:arm64 2>/dev/null; then
	skip "$ARM64_CASE" "podman has no localhost/kit-lsm:arm64 (make image ARCHES=arm64 BASE=..., docs/image.md, \"Making the arm64 image\")"
else
	arm64_labs() {
		local n nn lab a b m
		fresh "$T/a64" && fresh "$T/n64"
		# Through run.sh, as an attendee runs it (its flags: this host's
		# runtime and rlimits, --platform, --network none): its shell, the
		# command on stdin.
		m=$(cd "$T/a64" && echo 'uname -m' | KIT_IMAGE=localhost/kit-lsm:arm64 scripts/image/run.sh 2>&1)
		[ "$(tail -1 <<<"$m")" = aarch64 ] || { echo "the arm64 image's container says uname -m '$(tail -3 <<<"$m")', not aarch64"; exit 1; }
		for lab in "1 SOLUTION=1" "10 SOLUTION=1" "13 SOLUTION=1" 1; do
			n=${lab%% *} nn=$(printf '%02d' "${lab%% *}")
			# shellcheck disable=SC2086 # lab: words
			# A boot's time limit (lab.sh's 90 s) is a native TCG guest's:
			# here the guest's QEMU is itself emulated, about 4 times
			# slower (docs/performance.md), and the limit is raised so.
			(cd "$T/a64" && KIT_IMAGE=localhost/kit-lsm:arm64 timed "arm64 image (emulated): run.sh lab $lab" \
				scripts/image/run.sh lab $lab TIMEOUT="${KIT_TEST_ARM64_TIMEOUT:-600}" </dev/null) || true
			cp "$T/timed.out" "$T/a64-$n.out"
			! grep -q 'building kernel' "$T/a64-$n.out" || { echo "a kernel was compiled in the arm64 image for lab $lab"; exit 1; }
			[ -s "$T/a64/build/labs/$nn/last-run.json" ] || { echo "lab $lab in the arm64 image left no record:"; tail -15 "$T/a64-$n.out"; exit 1; }
			# shellcheck disable=SC2086 # lab: words
			(cd "$T/n64" && timed "amd64 here (native): make lab $lab" make lab $lab </dev/null) || true
			a=$(verdicts "$T/a64" "$nn") b=$(verdicts "$T/n64" "$nn")
			[ -n "$b" ] || { echo "the native run of lab $lab left no record:"; tail -15 "$T/timed.out"; exit 1; }
			[ "$a" = "$b" ] || { echo "lab $lab: arm64's verdicts differ from amd64's:"; diff <(echo "$b") <(echo "$a"); exit 1; }
			echo "lab $lab, both: $(head -1 <<<"$a")" | tee -a "$T/figures"
			case $lab in
			*SOLUTION=1) grep -q '^verdict pass' <<<"$a" || { echo "lab $lab solved does not pass: $a"; exit 1; } ;;
			*) grep -q '^verdict fail' <<<"$a" || { echo "the skeleton's lab $lab does not fail its steps: $a"; exit 1; } ;;
			esac
		done
	}
	scenario "$ARM64_CASE" arm64_labs
	figures
fi

# ---- the whole path, on a real engine -----------------------------------
BASE=${KIT_TEST_BASE:-}
if [ -z "$BASE" ]; then
	for c in "image built" "labs in the image, as root" "labs in the image, rootless" "the rootless case leaves no image behind"; do
		skip "$c" "KIT_TEST_BASE is not set: the name of a local Debian 12 base image (as root: scripts/image/base.sh localhost/kit-base-bookworm), from which this case builds the image (a kernel build the first time)"
	done
	exit 0
fi
if ! command -v podman >/dev/null 2>&1; then
	for c in "image built" "labs in the image, as root" "labs in the image, rootless" "the rootless case leaves no image behind"; do
		skip "$c" "podman is not installed (the instructor's tool: apt-get install podman runc uidmap)"
	done
	exit 0
fi
if ! podman image exists "$BASE" 2>/dev/null; then
	for c in "image built" "labs in the image, as root" "labs in the image, rootless" "the rootless case leaves no image behind"; do
		skip "$c" "no local Debian 12 base image $BASE (as root: scripts/image/base.sh $BASE; then this suite builds the image, a kernel build the first time)"
	done
	exit 0
fi

# labs DIR [SU-USER]: the three runs in the image from checkout DIR, as
# root or as SU-USER (rootless podman); their times as diagnostics.
labs() {
	local dir=$1 user=${2:-} t out rc
	runin() {	# runin ARGS...: scripts/image/run.sh ARGS in DIR
		if [ -n "$user" ]; then
			su "$user" -s /bin/bash -c 'cd "$1" && shift && scripts/image/run.sh "$@"' _ "$dir" "$@"
		else
			(cd "$dir" && scripts/image/run.sh "$@")
		fi
	}
	t=$SECONDS
	out=$(runin lab 1 SOLUTION=1 </dev/null 2>&1) || { echo "make lab 1 SOLUTION=1 failed in the image:"; tail -15 <<<"$out"; exit 1; }
	echo "make lab 1 SOLUTION=1 from a loaded image: $((SECONDS - t)) s (first run of a fresh checkout)" | tee -a "$T/figures"
	grep -q 'from the kernel cache' <<<"$out" || { echo "the kernel did not come from the image's cache:"; grep -E '^kit: ' <<<"$out" | head; exit 1; }
	! grep -q 'building kernel' <<<"$out" || { echo "a kernel was compiled in the image"; exit 1; }
	t=$SECONDS
	out=$(runin lab 10 SOLUTION=1 </dev/null 2>&1) || { echo "make lab 10 SOLUTION=1 failed in the image:"; tail -15 <<<"$out"; exit 1; }
	echo "make lab 10 SOLUTION=1: $((SECONDS - t)) s" | tee -a "$T/figures"
	# Lab 13: the bpf flavour's kernel from the image's cache, its BPF C
	# compiled with the image's clang and bpftool.
	t=$SECONDS
	out=$(runin lab 13 SOLUTION=1 </dev/null 2>&1) || { echo "make lab 13 SOLUTION=1 failed in the image:"; tail -15 <<<"$out"; exit 1; }
	echo "make lab 13 SOLUTION=1: $((SECONDS - t)) s" | tee -a "$T/figures"
	grep -q 'kernel (bpf) ready.*from the kernel cache' <<<"$out" || { echo "lab 13's kernel did not come from the image's cache:"; grep -E '^kit: ' <<<"$out" | head; exit 1; }
	! grep -q 'building kernel' <<<"$out" || { echo "a kernel was compiled in the image for lab 13"; exit 1; }
	t=$SECONDS
	rc=0; out=$(runin lab 1 </dev/null 2>&1) || rc=$?
	echo "make lab 1 (the skeleton): $((SECONDS - t)) s, status $rc" | tee -a "$T/figures"
	[ $rc != 0 ] && grep -q 'FAIL' <<<"$out" && ! grep -q 'kit: error' <<<"$out" ||
		{ echo "the skeleton's run did not end in its steps' FAILs (status $rc):"; tail -15 <<<"$out"; exit 1; }
}

built() {
	out=$(cd "$K" && BASE=$BASE make image 2>&1) || { tail -15 <<<"$out"; exit 1; }
	grep -E '^kit: image .* ready' <<<"$out"
}
scenario "image built from the local Debian 12 base $BASE (make image BASE=...)" built

root_labs() {
	fresh "$T/root-kit"
	labs "$T/root-kit"
	echo "image size: $(podman image inspect --format '{{.Size}}' localhost/kit-lsm:latest | awk '{ printf "%d MB", $1 / 1e6 }')" | tee -a "$T/figures"
}
scenario "labs in the image, as root, --network none: lab 1, lab 10 and lab 13 solved pass, the skeleton fails its steps, no kernel compiled" root_labs
figures

U=${KIT_TEST_USER:-kitroom}
if ! id "$U" >/dev/null 2>&1; then
	for c in "labs in the image, rootless" "the rootless case leaves no image behind"; do
		skip "$c" "no user $U for rootless podman (as root: useradd -m $U; or KIT_TEST_USER=NAME)"
	done
	exit 0
fi
# Rootless podman on a host without a kernel overlay for users (this one)
# stores images with the vfs driver, a full copy per layer: one load of the
# image took some 15 GB in the user's home here. The case removes what it
# loaded when it ends, and needs that much free first.
ROOTLESS_GB=20
rootless() {
	local h free
	h=$(getent passwd "$U" | cut -d: -f6)
	rm -rf "$h/kit-test" "$h/kit-image"
	free=$(df -P -BG "$h" | awk 'NR == 2 { print $4 + 0 }')
	[ "$free" -ge $ROOTLESS_GB ] || { echo "$h has $free GB free; the rootless case needs $ROOTLESS_GB GB (rootless podman's vfs copies each layer)"; exit 1; }
	# (h is expanded now: the trap runs after the function has returned)
	# shellcheck disable=SC2064 # expanded now, on purpose (above)
	trap "su \"\$U\" -s /bin/bash -c 'podman rmi -f localhost/kit-lsm:latest; podman system prune -f' >/dev/null 2>&1; rm -rf $(printf '%q ' "$h/kit-test" "$h/kit-image")" EXIT
	mkdir -p "$h/kit-image"
	(cd "$K" && make image-save OUT="$h/kit-image" >"$T/save.out" 2>&1) || { tail -5 "$T/save.out"; echo "make image-save failed"; exit 1; }
	grep -E 'compressed|SHA-256' "$T/save.out" | tee -a "$T/figures"
	f=$(ls "$h"/kit-image/kit-image-*.tar.gz)
	fresh "$h/kit-test"
	chown -R "$U:" "$h/kit-test" "$h/kit-image"
	t=$SECONDS
	su "$U" -s /bin/bash -c 'cd "$1" && scripts/image/run.sh load "$2"' _ "$h/kit-test" "$f" >"$T/load.out" 2>&1 || { tail -5 "$T/load.out"; echo "run.sh load failed as $U"; exit 1; }
	echo "run.sh load as $U (the digest checked, then podman load): $((SECONDS - t)) s" | tee -a "$T/figures"
	echo "the user's image storage after the load: $(du -sm "$h/.local/share/containers" 2>/dev/null | cut -f1) MB" | tee -a "$T/figures"
	labs "$h/kit-test" "$U"
}
scenario "labs in the image, rootless podman as $U, from make image-save's file" rootless
figures
# What the rootless case loaded is gone (it once stayed: 29 GB after two
# runs filled this disk).
left() {
	local h n
	h=$(getent passwd "$U" | cut -d: -f6)
	n=$(su "$U" -s /bin/bash -c 'podman images -q' 2>/dev/null | wc -l)
	[ "$n" = 0 ] || { echo "$U still has $n image(s): $(su "$U" -s /bin/bash -c 'podman images' 2>&1 | tail -n +2)"; exit 1; }
	[ ! -e "$h/kit-test" ] && [ ! -e "$h/kit-image" ] ||
		{ echo "the case's checkout or image file is still in $h: $(du -sh "$h/kit-test" "$h/kit-image" 2>&1 | tr '\n' ' ')"; exit 1; }
	echo "$U's container storage: $(du -sm "$h/.local/share/containers" 2>/dev/null | cut -f1) MB left"
}
scenario "the rootless case leaves no image behind" left
