# shellcheck shell=bash
# The container engine and what this host needs of it, for make image,
# make image-save and scripts/image/run.sh.  Sourced (after lib.sh),
# never run; bash 3.2 too (macOS's), since run.sh is what a Mac runs.
#
# ENGINE: podman, else docker (KIT_ENGINE names one).  ENGINE_FLAGS: what
# a container needs on this host, found by looking, not asked of the user:
#  - a sandbox without CAP_SYS_RESOURCE in its bounding set cannot raise
#    an rlimit, and the OCI runtimes set podman's defaults (nofile
#    1048576...): they fail unless given the current limits (--ulimit);
#  - a runtime that cannot start a container here (crun on a cgroup v1/v2
#    hybrid): a first container is tried, and on failure podman's runc.
# ENGINE_NET: the network a build's RUN reaches Debian's archive with.
# shellcheck disable=SC2034 # ENGINE_NET, ENGINE_FLAGS: for the sourcing script
# KIT_IMAGE: the image the caller named (KIT_IMAGE_GIVEN), else the
# default name, which run.sh and make doctor replace by this machine's
# architecture's (pin.sh's pin_image).
KIT_IMAGE_GIVEN=${KIT_IMAGE:-}
KIT_IMAGE=${KIT_IMAGE:-localhost/kit-lsm:latest}

engine_pick() {
	ENGINE=${KIT_ENGINE:-}
	if [ -z "$ENGINE" ]; then
		if command -v podman >/dev/null 2>&1; then ENGINE=podman
		elif command -v docker >/dev/null 2>&1; then ENGINE=docker
		else
			die "no container engine: neither podman nor docker is installed." \
			    "Install one (Debian, Ubuntu: apt-get install podman; Fedora: dnf install podman; macOS, Windows: Podman Desktop or Docker Desktop), or, on a Debian 12 host, use the kit directly: make lab 1."
		fi
	fi
	command -v "$ENGINE" >/dev/null 2>&1 ||
		die "KIT_ENGINE=$ENGINE: no such command." "Install it, or unset KIT_ENGINE (podman, else docker)."
	ENGINE_FLAGS=()
}

# engine_arch: the image exists for the architectures of
# configs/arches.conf (amd64, arm64: the guest is x86_64 in each, the
# arm64 image's cross-built); on another host, say so at once.
engine_arch() {
	local m
	m=$(uname -m)
	[ -z "$(pin_image_row "$(pin_arch)" "$KIT")" ] || return 0
	die "this host is $(uname -s) $m: the kit's image is made for $(pin_image_arches "$KIT") hosts only (configs/arches.conf)." \
	    "Use an x86_64 or arm64 machine: any Linux, WSL2, a Mac (Intel or Apple silicon) with podman machine or Docker Desktop."
}

# engine_limits: --ulimit at the current limits, where nothing may raise one.
engine_limits() {
	local bnd n u
	bnd=$(sed -n 's/^CapBnd:[[:space:]]*//p' "${KIT_PROC_STATUS:-/proc/self/status}" 2>/dev/null || true)
	[ -n "$bnd" ] || return 0	# no /proc (a Mac): the engine's VM decides
	[ $(( (0x$bnd >> 24) & 1 )) = 0 ] || return 0	# CAP_SYS_RESOURCE is 24
	# nproc: at most 4096 (make, gcc and QEMU use tens), since the
	# runtime is started by podman's conmon, whose own limit can be lower
	# than this shell's (32768 here, under a shell's 96367: refused).
	n=$(ulimit -Hn) u=$(ulimit -Hu)
	[ "$n" = unlimited ] && n=-1
	if [ "$u" = unlimited ] || [ "$u" -gt 4096 ]; then u=4096; fi
	ENGINE_FLAGS+=(--ulimit "nofile=$n:$n" --ulimit "nproc=$u:$u")
}

# engine_runtime IMAGE: a first container of IMAGE; if the engine's
# default runtime cannot start it and podman's runc can, --runtime runc.
# The probe runs true in place of the image's entry point, which refuses
# to start without a checkout at /kit (scripts/image/entry.sh): with it,
# every probe failed, on every runtime, and run.sh never ran a lab.
engine_runtime() {
	local img=$1 err
	err=$("$ENGINE" run --rm --network none --entrypoint true ${ENGINE_FLAGS[@]+"${ENGINE_FLAGS[@]}"} "$img" 2>&1) && return 0
	if [ "$ENGINE" = podman ] && command -v runc >/dev/null 2>&1 &&
	   "$ENGINE" run --rm --network none --entrypoint true --runtime runc ${ENGINE_FLAGS[@]+"${ENGINE_FLAGS[@]}"} "$img" >/dev/null 2>&1; then
		ENGINE_FLAGS+=(--runtime runc)
		return 0
	fi
	printf '%s\n' "$err" | tail -5 >&2
	die "$ENGINE could not start a container of $img (its message above)." \
	    "Check that '$ENGINE run --rm --entrypoint true $img' works on this host; if the image is missing: make image, or $ENGINE load -i FILE."
}

# engine_build_net BASE: ENGINE_NET, the network a build's RUN reaches
# Debian's archive with: the engine's default, else the host's.
engine_build_net() {
	local img=$1 probe='getent hosts deb.debian.org >/dev/null'
	ENGINE_NET=()
	"$ENGINE" run --rm ${ENGINE_FLAGS[@]+"${ENGINE_FLAGS[@]}"} "$img" sh -c "$probe" >/dev/null 2>&1 && return 0
	if "$ENGINE" run --rm --network host ${ENGINE_FLAGS[@]+"${ENGINE_FLAGS[@]}"} "$img" sh -c "$probe" >/dev/null 2>&1; then
		ENGINE_NET=(--network host)
		return 0
	fi
	die "a container of $img cannot reach deb.debian.org, with the engine's network or the host's." \
	    "make image installs the kit's Debian packages: it needs Debian's archive (or build the image elsewhere and carry it here: make image-save OUT=FILE, then $ENGINE load -i FILE)."
}

# folds_case DIR: whether DIR's filesystem folds case (macOS's APFS as
# podman machine shares it, a Windows drive under WSL2): a probe file,
# looked up by its name in upper case.  The 6.1 tree has 13 pairs of
# paths that differ only in case (xt_connmark.h, xt_CONNMARK.h...), and
# its objects and headers more: on such a filesystem one of each pair is
# lost.  (Sourced by scripts/image/entry.sh too.)
folds_case() {
	local p=$1/.kit-case-probe.$$ r=1
	: >"$p" 2>/dev/null || return 1
	[ ! -e "$1/.KIT-CASE-PROBE.$$" ] || r=0
	rm -f "$p"
	return $r
}
