# The sweeps of rig/guest/faultsweep.c, base and patched side by side:
#   awk -f fields.awk -f sweep-table.awk BASE_OUTPUT PATCHED_OUTPUT
# Prints PASS or FAIL on the first line, then a markdown table (operation x
# allocator: allocations failed, errnos, kernel reports, changes others saw,
# kmemleak objects; base -> patched) and the failed sites.  Patched fails
# where it is worse than base: a sweep that did not finish, more kernel
# reports or changes, an errno base never gave (ENOMEM aside), or more
# kmemleak objects, in all or at one allocation site, than base left for
# as many runs.  (A sweep makes one run per allocation on its path, and
# the patched paths have more of them; a leak rc1 has on every open, as
# ptmx has, grows with the runs.  So patched is worse where it leaks more
# objects than base and more objects per run: a site base never leaks at
# is always worse.)
{ side = FILENAME == ARGV[1] ? "b" : "p" }
/^SWEEP / {
	k = field($0, "op") " " field($0, "alloc")
	if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
	split("runs failed errnos reports others leaks sites", names, " ")
	for (f in names)
		v[side, k, names[f]] = field($0, names[f])
	done[side, k] = 1
}
/^LEAK / && field($0, "op") != "boot" {
	k = field($0, "op") " " field($0, "alloc")
	leak[side, k, field($0, "site")]++
	if (!((k, field($0, "site")) in lseen)) {
		lseen[k, field($0, "site")] = 1
		lsites[k] = lsites[k] " " field($0, "site")
	}
}
function pair(k, f) { return v["b", k, f] " → " v["p", k, f] }
# more leaked objects than base, and more per run
function leaks_more(k, b, p) {
	return p > b && p * v["b", k, "runs"] > b * v["p", k, "runs"]
}
END {
	bad = 0
	for (i = 1; i <= nk; i++) {
		k = order[i]
		why = ""
		if (!done["p", k]) why = why " patched did not finish;"
		else if (!done["b", k]) why = why " base did not finish (nothing to compare);"
		else {
			if (v["p", k, "reports"] + 0 > v["b", k, "reports"] + 0) why = why " more kernel reports;"
			if (v["p", k, "others"] + 0 > v["b", k, "others"] + 0) why = why " others saw a change;"
			if (leaks_more(k, v["b", k, "leaks"] + 0, v["p", k, "leaks"] + 0)) why = why " more kmemleak objects;"
			n = split(v["p", k, "errnos"], e, ",")
			for (j = 1; j <= n; j++)
				if (e[j] != "ENOMEM" && e[j] != "ok" && e[j] != "-" &&
				    !index("," v["b", k, "errnos"] ",", "," e[j] ","))
					why = why " errno " e[j] " that base never gave;"
			n = split(lsites[k], s, " ")
			for (j = 1; j <= n; j++)
				if (leaks_more(k, leak["b", k, s[j]] + 0, leak["p", k, s[j]] + 0))
					why = why " leaks at " s[j] ";"
		}
		verdict[k] = why == "" ? "ok" : "**worse:" why "**"
		if (why != "") bad++
	}
	print (bad ? "FAIL: patched worse than base in " bad " of " nk " sweeps" : "PASS: patched no worse than base in any of " nk " sweeps")
	print ""
	print "| operation | allocator | allocations failed | errnos | kernel reports | changes others saw | kmemleak objects | runs | patched |"
	print "|---|---|---|---|---|---|---|---|---|"
	for (i = 1; i <= nk; i++) {
		k = order[i]; split(k, o, " ")
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", o[1], o[2],
			pair(k, "failed"), pair(k, "errnos"), pair(k, "reports"),
			pair(k, "others"), pair(k, "leaks"), pair(k, "runs"), verdict[k]
	}
	print ""
	print "(base → patched.  errnos: what the operation returned when an allocation failed, ok where the failure was absorbed.  runs: one per allocation the sweep failed in turn; kmemleak objects are judged per run as well as in all.)"
	print ""
	print "<details><summary>failed sites (function that asked: result), base then patched</summary>"
	print ""
	for (i = 1; i <= nk; i++) {
		k = order[i]
		print "- " k
		print "  - base: " v["b", k, "sites"]
		print "  - patched: " v["p", k, "sites"]
		if (lsites[k] != "") {
			line = ""
			n = split(lsites[k], s, " ")
			for (j = 1; j <= n; j++)
				line = line " " s[j] " (" leak["b", k, s[j]] + 0 " → " leak["p", k, s[j]] + 0 ")"
			print "  - kmemleak sites:" line
		}
	}
	print ""
	print "</details>"
}
