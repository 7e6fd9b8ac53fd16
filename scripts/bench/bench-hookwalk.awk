# The one parser of make bench HOOKWALK=1 (scripts/bench/bench-hookwalk.sh): its
# log (build/bench/hookwalk/hookwalk.log) in, the hook walk's markdown
# table out.  The log is one block per boot:
#	HOOKWALK round=R kernel=K boot=B stack=S load=L
#	BENCH getppid NS MIN MAX		(lsm_bench --hookwalk's lines)
#	BENCH OP/getppid RATIO MIN MAX ...
# A kernel's cell is the median over the rounds of each boot's median
# ratio to its own getppid() (paired in the boot, ABBA), with the min-max
# over the rounds; a kernel/kernel cell is the median (min-max) of the
# per-round ratios of those two boots' figures, one pair per round where
# both booted (adjacent boots).  The median of an even count is the lower
# middle one, as bench-lib.sh's median.  ≈ marks a kernel/kernel ratio
# whose spread includes 1: no difference that this run can tell.
# Variables: base=BOOT (default smack), the boot that a boot run on one
# kernel only (the kit's stacked one) is compared with on that kernel.
# A boot named "none" (no major module) is subtracted from the others on
# each kernel, per round: a module's own share of the walk.

function summary(s, prec,   a, n, i, j, t) {
	n = split(s, a, " ")
	if (!n)
		return "-"
	for (i = 1; i <= n; i++)
		a[i] += 0
	for (i = 2; i <= n; i++) {
		t = a[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--)
			a[j + 1] = a[j]
		a[j + 1] = t
	}
	last_lo = a[1]; last_hi = a[n]; last_n = n
	if (prec < 0)
		prec = (a[int((n + 1) / 2)] >= 100 || a[int((n + 1) / 2)] <= -100) ? 0 : 2
	return sprintf("%.*f (%.*f%s%.*f)", prec, a[int((n + 1) / 2)], prec, a[1],
		       a[1] < 0 ? " to " : "-", prec, a[n])
}
# summary "V V V" PREC: "median (min-max)" with PREC decimals (-1: 2, none
# from 100 on, or from -100 down); "min to max" if min is negative
# cell K B NAME PREC: NAME's medians over the rounds, kernel K, boot B
function cell(k, b, name, prec,   r, s) {
	s = ""
	for (r = 1; r <= nr; r++)
		if ((rounds[r], k, b, name) in v)
			s = s " " v[rounds[r], k, b, name]
	return summary(s, prec)
}
# cross K1 B1 K2 B2 NAME: K2's B2 / K1's B1, paired by round
function cross(k1, b1, k2, b2, name,   r, s, x, y, out) {
	s = ""
	for (r = 1; r <= nr; r++) {
		if (!((rounds[r], k1, b1, name) in v) || !((rounds[r], k2, b2, name) in v))
			continue
		x = v[rounds[r], k1, b1, name]; y = v[rounds[r], k2, b2, name]
		if (x > 0)
			s = s " " y / x
	}
	out = summary(s, 2)
	if (out != "-" && last_lo <= 1 && last_hi >= 1)
		out = out " ≈"
	return out
}
# diff K B0 B NAME: K's B - B0, per round where both booted
function diff(k, b0, b, name,   r, s) {
	s = ""
	for (r = 1; r <= nr; r++)
		if ((rounds[r], k, b0, name) in v && (rounds[r], k, b, name) in v)
			s = s " " v[rounds[r], k, b, name] - v[rounds[r], k, b0, name]
	return summary(s, -1)
}
function row(a, b, c, d, e, f, g) { printf "| %s | %s | %s | %s | %s | %s | %s |\n", a, b, c, d, e, f, g }

BEGIN { if (base == "") base = "smack" }
$1 == "HOOKWALK" {
	delete h
	for (i = 2; i <= NF; i++) {
		split($i, kv, "=")
		h[kv[1]] = kv[2]
	}
	r = h["round"]; k = h["kernel"]; b = h["boot"]
	if (!(b in stack)) { boots[++nb] = b; stack[b] = h["stack"] }
	if (!(r in seen)) { seen[r] = 1; rounds[++nr] = r }
	on[k, b] = 1
	l = h["load"] + 0
	if (!nl++ || l < lmin) lmin = l
	if (nl == 1 || l > lmax) lmax = l
	next
}
$1 == "BENCH" && k != "" { v[r, k, b, $2] = $3 }

END {
	if (!nb) {
		print "bench-hookwalk.awk: no HOOKWALK block in the log" > "/dev/stderr"
		exit 1
	}
	nops = split("open_read_close stat exec", ops, " ")
	what["open_read_close"] = "open+read+close"
	what["stat"] = "stat"
	what["exec"] = "fork+exec+wait"
	kn = split("baseline normal mainline", ks, " ")
	printf "%d round(s) of %d boot(s); load (1 min) before each boot %.2f-%.2f.\n\n", nr, nl / (nr ? nr : 1), lmin, lmax
	row("figure [boot: stack]", "pristine 6.1", "kit (6.1 + series)", "mainline 6.12", "kit / pristine", "6.12 / pristine", "6.12 / kit")
	row("---", "---", "---", "---", "---", "---", "---")
	for (i = 1; i <= nb; i++) {
		b = boots[i]
		n = 0
		for (j = 1; j <= kn; j++)
			n += (ks[j], b) in on
		if (n < 2)
			continue
		row("getppid() ns, the floor [" b ": " stack[b] "]",
		    cell("baseline", b, "getppid", 0), cell("normal", b, "getppid", 0), cell("mainline", b, "getppid", 0),
		    cross("baseline", b, "normal", b, "getppid"), cross("baseline", b, "mainline", b, "getppid"),
		    cross("normal", b, "mainline", b, "getppid"))
		for (o = 1; o <= nops; o++) {
			name = ops[o] "/getppid"
			row("  " what[ops[o]] " in getppid units [" b "]",
			    cell("baseline", b, name, -1), cell("normal", b, name, -1), cell("mainline", b, name, -1),
			    cross("baseline", b, "normal", b, name), cross("baseline", b, "mainline", b, name),
			    cross("normal", b, "mainline", b, name))
		}
	}
	# A module's own share: its boot minus the boot without any of the
	# major modules ("none"), on each kernel, per round.
	hdr = 0
	for (i = 1; i <= nb; i++) {
		b = boots[i]
		n = 0
		for (j = 1; j <= kn; j++)
			n += ((ks[j], b) in on) && ((ks[j], "none") in on)
		if (b == "none" || n < 2)
			continue
		if (!hdr++) {
			printf "\n| a module's own share: [boot] - [none], getppid units | pristine 6.1 | kit (6.1 + series) | mainline 6.12 |\n"
			printf "| --- | --- | --- | --- |\n"
		}
		for (o = 1; o <= nops; o++) {
			name = ops[o] "/getppid"
			printf "| %s [%s] - [none] | %s | %s | %s |\n", what[ops[o]], b,
			       diff("baseline", "none", b, name), diff("normal", "none", b, name), diff("mainline", "none", b, name)
		}
	}
	# The boots on one kernel only, against the base boot on that kernel.
	hdr = 0
	for (i = 1; i <= nb; i++) {
		b = boots[i]
		n = 0
		for (j = 1; j <= kn; j++)
			if ((ks[j], b) in on) { n++; kk = ks[j] }
		if (n != 1 || !((kk, base) in on))
			continue
		if (!hdr++) {
			printf "\n"
			printf "| stacking, one kernel, in getppid units | [%s: %s] | [%s: %s] | [%s] / [%s] |\n", base, stack[base], b, stack[b], b, base
			printf "| --- | --- | --- | --- |\n"
		}
		printf "| getppid() ns, the floor (%s kernel) | %s | %s | %s |\n", kk,
		       cell(kk, base, "getppid", 0), cell(kk, b, "getppid", 0), cross(kk, base, kk, b, "getppid")
		for (o = 1; o <= nops; o++) {
			name = ops[o] "/getppid"
			printf "|   %s (%s kernel) | %s | %s | %s |\n", what[ops[o]], kk,
			       cell(kk, base, name, -1), cell(kk, b, name, -1), cross(kk, base, kk, b, name)
		}
	}
}
