# shellcheck shell=bash
# A file the kit is handed (the image's file on a USB stick, make bundle's
# tar), checked in this one place before anything reads it: the kit's
# rules for input another person controls.  Sourced after lib.sh, never
# run; bash 3.2 too (scripts/image/run.sh load runs on macOS).
#
#	handed_file FILE WHAT [SHA256]	a plain file whose SHA-256 is SHA256,
#					else the one in FILE.sha256 beside it
#	handed_tar FILE TOP		a tar whose members are all plain files
#					and folders under TOP/, none setuid,
#					setgid or sticky, none a link
#	handed_sums DIR SUMS		every plain file under DIR listed in
#					SUMS (sha256sum's lines) with its
#					digest, and nothing else there
# Each dies (lib.sh's die) naming the file, what was expected and what
# was found, and what to do; none changes anything.

# handed_sha256 FILE: its SHA-256, in hex (sha256sum, or macOS's shasum).
handed_sha256() {
	if command -v sha256sum >/dev/null 2>&1; then sha256sum <"$1" | cut -d' ' -f1
	else shasum -a 256 <"$1" | cut -d' ' -f1
	fi
}

# handed_q TEXT: TEXT for a terminal, lines joined, quoted as the shell
# would (another person's file names may hold escapes).
handed_q() { printf '%q' "$(printf '%s' "$1" | tr '\n' ' ')"; }

# handed_plain FILE WHAT: die unless FILE is a plain file, not a link.
handed_plain() {
	[ ! -L "$1" ] || die "$2 $1 is a symbolic link." "Give the file itself, not a link to it."
	[ -e "$1" ] || die "$2 $1: no such file." "Give the path of the file you were handed."
	[ -f "$1" ] || die "$2 $1 is not a plain file." "Give the file itself."
}

# handed_file FILE WHAT [SHA256]: FILE's SHA-256 must be SHA256 (64 hex
# digits, as make image-save and make bundle print it), or, when none is
# given, the one FILE.sha256 holds (their line: "DIGEST  NAME").  Prints
# where the expected digest came from; HANDED_SHA256 is the digest found.
handed_file() {
	local f=$1 what=$2 want=${3:-} from side line
	handed_plain "$f" "$what"
	side=$f.sha256
	if [ -n "$want" ]; then
		from="the digest given"
	elif [ -e "$side" ] || [ -L "$side" ]; then
		handed_plain "$side" "$what's digest file"
		[ "$(wc -c <"$side")" -le 4096 ] || die "$side is not a digest file (over 4 KB)." "Copy $(basename "$side") again from where you got $(basename "$f")."
		line=$(head -1 "$side")
		want=${line%% *}
		from="$(basename "$side") beside it"
	else
		die "$what $f has no digest to be checked against: no $(basename "$side") beside it, and none given." \
		    "Copy $(basename "$side") with it, or give the SHA-256 the instructor printed (SHA256=<64 hex digits>)."
	fi
	want=$(printf '%s' "$want" | tr 'A-F' 'a-f')
	case $want in
	*[!0-9a-f]*|'') die "$what: the expected digest ($(printf '%q' "$want"), from $from) is no SHA-256." "A SHA-256 is 64 hex digits, as make image-save and make bundle print it." ;;
	esac
	[ ${#want} = 64 ] || die "$what: the expected digest (from $from) has ${#want} hex digits, not 64." "Give the whole digest the instructor printed."
	say "checking the SHA-256 of $(basename "$f") ($(( $(wc -c <"$f") / 1000000 )) MB)"
	HANDED_SHA256=$(handed_sha256 "$f")
	[ "$HANDED_SHA256" = "$want" ] ||
		die "$what $f is not the file expected: its SHA-256 is $HANDED_SHA256, and $from says $want." \
		    "The copy is damaged or it is another file: copy it again from the instructor's stick or share, and compare the digest with the one the instructor printed."
	say "$(basename "$f"): SHA-256 $HANDED_SHA256, as $from says"
}

# handed_tar FILE TOP: every member of the tar FILE a plain file or a
# folder under TOP/ (no absolute name, no ..), with no setuid, setgid or
# sticky bit; no link of either kind, no device, no FIFO.  Read with tar's
# own listing, before anything is extracted.
handed_tar() {
	local f=$1 top=$2 names long n1 n2 bad
	names=$(tar -tf "$f" 2>&1) || die "$f is not a tar file that can be read ($(printf '%s' "$names" | tail -1))." "Copy it again."
	long=$(LC_ALL=C tar -tvf "$f" 2>/dev/null)
	n1=$(printf '%s\n' "$names" | wc -l) n2=$(printf '%s\n' "$long" | wc -l)
	[ "$n1" = "$n2" ] || die "$f: its listing could not be read member by member." "Use the file make bundle wrote."
	bad=$(printf '%s\n' "$names" | grep -vE "^$top(/|\$)" | head -3 || true)
	[ -z "$bad" ] || die "$f is not a kit file: it has members outside $top/ ($(handed_q "$bad"))." "Use the file the kit wrote."
	bad=$(printf '%s\n' "$names" | grep -E '(^|/)\.\.(/|$)' | head -3 || true)
	[ -z "$bad" ] || die "$f has members with .. in their names ($(handed_q "$bad"))." "Use the file the kit wrote."
	# The type is the mode's first letter: - a file, d a folder; l, h a
	# link, c b p a device or FIFO.  s S t T in the mode: setuid, setgid, sticky.
	bad=$(printf '%s\n' "$long" | awk '$1 !~ /^[-d]/ { print; exit }')
	[ -z "$bad" ] || die "$f has a member that is neither a plain file nor a folder: $(handed_q "$bad")." \
		"The kit's files hold no links, devices or FIFOs: use the file the kit wrote."
	bad=$(printf '%s\n' "$long" | awk '$1 ~ /[sStT]/ { print; exit }')
	[ -z "$bad" ] || die "$f has a member with a setuid, setgid or sticky bit: $(handed_q "$bad")." \
		"The kit's files have none: use the file the kit wrote."
	return 0
}

# handed_sums DIR SUMS: each plain file under DIR (but SUMS itself) is in
# SUMS ("DIGEST  PATH", PATH relative to DIR) with that digest, each file
# SUMS names is there, and DIR holds nothing but plain files and folders.
handed_sums() {
	local dir=$1 sums=$2 rel extra missing bad
	bad=$(find "$dir" ! -type f ! -type d -print -quit)
	[ -z "$bad" ] || die "$(handed_q "$bad") is neither a plain file nor a folder." "Use the file the kit wrote."
	extra=$(cd "$dir" && find . -type f ! -path "./${sums#"$dir"/}" | sed 's|^\./||' | LC_ALL=C sort |
		LC_ALL=C comm -23 - <(sed 's/^[0-9a-f]*  //' "$sums" | LC_ALL=C sort) | head -3 || true)
	[ -z "$extra" ] || die "files that the manifest does not list: $(handed_q "$extra")." "Use the file the kit wrote."
	missing=$(sed 's/^[0-9a-f]*  //' "$sums" | while IFS= read -r rel; do
		[ -f "$dir/$rel" ] || printf '%s\n' "$rel"
	done | head -3)
	[ -z "$missing" ] || die "files that the manifest lists are missing: $(handed_q "$missing")." "Copy the file again."
	bad=$(cd "$dir" && sha256sum --quiet -c "${sums#"$dir"/}" 2>&1 | head -3 || true)
	[ -z "$bad" ] || die "files whose content is not the manifest's: $(handed_q "$bad")." "Copy the file again: it is damaged."
	return 0
}
