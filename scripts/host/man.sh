#!/usr/bin/env bash
# make man PAGE=NAME: a manual page the kit cites, offline.  The pages of
# the Debian packages the kit unpacks instead of installing them
# (build/tools/*/usr/share/man: apparmor, for apparmor.d(5),
# apparmor_parser(8)...) are read with man -l; any other NAME is the
# host's own (man NAME: checkpolicy(8) comes with the checkpolicy
# package).  NAME may carry its section: apparmor.d, apparmor.d.5 or
# "apparmor.d(5)".
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"

page=${1:-}
[ -n "$page" ] || die "which page? make man PAGE=NAME, for example make man PAGE=apparmor.d." \
	"The unpacked pages: $(find "$BUILD"/tools/*/usr/share/man -name '*.gz' 2>/dev/null | sed 's|.*/||; s|\.gz$||' | sort | paste -sd' ')"
sect=
if [[ $page =~ ^(.+)\(([0-9])\)$ ]]; then page=${BASH_REMATCH[1]} sect=${BASH_REMATCH[2]}; fi
if [[ $page =~ ^(.+)\.([0-9])$ ]]; then page=${BASH_REMATCH[1]} sect=${BASH_REMATCH[2]}; fi
# The apparmor package is unpacked by deps.sh (downloaded once).
[ -d "$BUILD/tools/apparmor/usr/share/man" ] || "$KIT/scripts/host/deps.sh" || exit 1
file=$(compgen -G "$BUILD/tools/*/usr/share/man/man${sect:-[0-9]}/$page.${sect:-[0-9]}*.gz" | head -1) || true
view() {	# the page, through man's pager on a terminal, as text elsewhere
	if command -v man >/dev/null; then man "$@"; else
		die "man is not installed on this machine." "Run as root: apt-get install -y man-db   then make man PAGE=$page again."
	fi
}
if [ -n "$file" ]; then
	view -l "$file"
elif man -w ${sect:+"$sect"} "$page" >/dev/null 2>&1; then
	view ${sect:+"$sect"} "$page"
else
	die "no manual page $page${sect:+($sect)}: neither one the kit unpacked (build/tools) nor the host's." \
	    "make man alone lists the unpacked ones."
fi
