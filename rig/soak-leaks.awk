# A soak under faults against a base soak: kmemleak's objects per site.
#   awk -f fields.awk -f soak-leaks.awk BASE_OUTPUT PATCHED_OUTPUT
# Prints "PASS: ..." or "FAIL: ..." (the sites found worse) on its first
# line, then a markdown table of every site: objects base, patched, and
# patched scaled to base's operations.
# The objects a soak leaves grow with the failed allocations, so with the
# marked operations it made ("SOAK ops:" tmpfs_open + ext2_open + pty; how
# many a run makes depends on the host), and they come at random: a soak is
# not a sweep.  So patched is worse at a site base never leaks at, or where
# its objects, scaled to base's operations (ps), exceed base's (b) by more
# than three standard deviations of the difference of two Poisson counts,
# ps - b > 3 sqrt(ps + b).
{ side = FILENAME == ARGV[1] ? "b" : "p" }
/^SOAK ops: / {
	ops[side] = field($0, "tmpfs_open") + field($0, "ext2_open") + field($0, "pty")
}
/^LEAK op=soak / {
	s = field($0, "site")
	n[side, s]++
	if (!(s in seen)) { seen[s] = 1; sites[++ns] = s }
}
END {
	if (!ops["b"] || !ops["p"]) {
		print "FAIL: no marked operations counted (SOAK ops line) in " (ops["b"] ? "patched" : "base") "'s output"
		exit 1
	}
	worse = ""
	table = ns ? "" : "| (none) | 0 | 0 | 0 |\n"
	for (i = 1; i <= ns; i++) {
		s = sites[i]; b = n["b", s] + 0; p = n["p", s] + 0
		ps = p * ops["b"] / ops["p"]
		if ((b == 0 && p > 0) || ps - b > 3 * sqrt(ps + b))
			worse = worse sprintf(" %s %d>%d (%.1f for base's %d operations);", s, p, b, ps, ops["b"])
		table = table sprintf("| %s | %d | %d | %.1f |\n", s, b, p, ps)
	}
	printf "%s: %d marked operations patched, %d base;%s\n", worse ? "FAIL" : "PASS",
		ops["p"], ops["b"], worse ? worse : " no site worse"
	print "| kmemleak site | objects base | objects patched | patched for base's operations |"
	print "|---|---|---|---|"
	printf "%s", table
	exit worse != ""
}
