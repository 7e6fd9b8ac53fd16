#!/usr/bin/env bash
# make why CMD='...' [APPEND='...'] [SETUP='...'] [WHY='-k HOOK ...']:
# boot the guest, run SETUP (not traced), then CMD under the guest's
# /bin/why (initramfs/why.c), which prints, for each system call that an
# LSM refused, the modules asked hook by hook, who said no and who was
# never asked.  CMD runs in `sh -c`; WHY passes options to why (why -h).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -n "${CMD:-}" ] || die "make why needs CMD='...', the command to explain." \
	"For example: make why CMD='cat /etc/passwd' APPEND=smack (why's options: WHY='-a -k file_open')."
case "${CMD}${SETUP:-}" in
*KIT_WHY_EOF*) die "CMD and SETUP may not contain the word KIT_WHY_EOF." "Rename it." ;;
esac
"$KIT/scripts/kernel.sh"
mkdir -p "$BUILD/run"
script=$BUILD/run/why-script
{
	printf '#!/bin/sh\n'
	printf '%s\n' "${SETUP:-}"
	printf 'exec why %s sh -c "$(cat <<'\''KIT_WHY_EOF'\''\n%s\nKIT_WHY_EOF\n)"\n' \
		"${WHY:-}" "$CMD"
} >"$script"
exec "$KIT/scripts/run-guest.sh" --name why --script "$script"
