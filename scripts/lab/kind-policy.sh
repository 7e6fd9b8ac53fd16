# shellcheck shell=bash
# make lab, KIND=policy (labs 10, 12): SOURCE is a folder of policy files,
# compiled on the host and loaded by the grader in a guest of the kit's
# kernel (scripts/lab/policy.sh does the work).  One of the four kind
# files (docs/hacking.md, "The kinds' hooks"): the user kind's hooks,
# then what differs here; load_conf sources the one of the lab's KIND
# (kind_load, scripts/lab/conf.sh).
# shellcheck source=scripts/lab/kind-user.sh
. "$KIT/scripts/lab/kind-user.sh"

# lab.sh: the stages.
kind_build_variant() { policy_build "$1" "$2"; }	# TAG SRC

# boot.sh: what a guest gets beyond the grader; the shell; gdb.
kind_payload() { policy_payload "$1"; }
kind_shell() { policy_shell "$1"; }

# build.sh and report.sh: the learner's advice.
kind_compile_advice() { echo " It names your file, the line the mistake is most likely on, and why."; }

# scripts/lab/lab-check.sh: SOURCE needs the policy compilers built from the
# kernel's tree (tests/host/labs.sh builds them): the grader alone.
kind_check_files() { :; }
kind_check_compile() { check_grader_alone; }
kind_check_mistake() { :; }
