# field(LINE, KEY): the value of KEY=VALUE in a rig output line ("" if
# absent); for the judges that read the guest's lines, run as
#   awk -f fields.awk -f JUDGE.awk ...
function field(line, key,   i, n, kv) {
	n = split(line, kv, " ")
	for (i = 1; i <= n; i++)
		if (index(kv[i], key "=") == 1)
			return substr(kv[i], length(key) + 2)
	return ""
}
