#!/bin/sh
# make count: valgrind's instruction count (callgrind's Ir) of one
# lg_global_lock_online() + lg_global_unlock_online() pair, the write side
# of a brlock, with the series' mask walk (a word at a time, up to the
# word of nr_cpu_ids - 1; loop "series") and with for_each_cpu() (which
# scans nr_cpumask_bits = NR_CPUS, the kernel without
# CONFIG_CPUMASK_OFFSTACK), for each CONFIG_NR_CPUS in
# COUNT_NR_CPUS, nr_cpu_ids 2, 8, 64, 512, 4096 (up to NR_CPUS) and 1, 2,
# 4 CPUs online.
#
# Callgrind collects only inside the two functions (--toggle-collect),
# callees included, so the harness's loop is not counted.  Each row is
# run with PAIRS and with 2*PAIRS pairs and the difference divided by
# PAIRS, so that anything done once (the harness's check pair) drops out.
# Prints CSV: nr_cpus,nr_cpu_ids,online,loop,ir_per_pair,fnb_ir_per_pair
# (fnb: the part spent in find_next_bit(), the scan itself).
O=${O:-build}
COUNT_NR_CPUS=${COUNT_NR_CPUS:-512 4096}
PAIRS=${PAIRS:-1000}

for t in valgrind callgrind_annotate; do
	if ! command -v "$t" >/dev/null 2>&1; then
		echo "count: $t is not installed (Debian: apt-get install valgrind)" >&2
		exit 1
	fi
done

# ir BIN NR_CPU_IDS ONLINE PAIRS: prints "IR FNB", the Ir inside the two
# functions, and that of find_next_bit() among it
ir()
{
	rm -f "$O/count.callgrind"
	valgrind --tool=callgrind --callgrind-out-file="$O/count.callgrind" \
		--collect-atstart=no \
		--toggle-collect=__lg_global_lock_online \
		--toggle-collect=__lg_global_unlock_online \
		"$1" "$2" "$3" "$4" >/dev/null 2>"$O/count.log" || return 1
	# (find_next_bit() calls nothing: its own Ir is all of it)
	callgrind_annotate --auto=no "$O/count.callgrind" 2>>"$O/count.log" |
		awk '/PROGRAM TOTALS/ { gsub(",", "", $1); t = $1 }
		     /:find_next_bit \[/ && f == "" { gsub(",", "", $1); f = $1 }
		     END { if (t == "") exit 1; print t, f + 0 }'
}

echo "nr_cpus,nr_cpu_ids,online,loop,ir_per_pair,fnb_ir_per_pair"
for nr in $COUNT_NR_CPUS; do
	for ids in 2 8 64 512 4096; do
		[ "$ids" -le "$nr" ] || continue
		for online in 1 2 4; do
			[ "$online" -le "$ids" ] || continue
			for loop in for_each_cpu series; do
				bin=$O/count-$loop/count-$nr
				if ! a=$(ir "$bin" "$ids" "$online" "$PAIRS") ||
					! b=$(ir "$bin" "$ids" "$online" $((2 * PAIRS))); then
					echo "count: $bin $ids $online failed:" >&2
					cat "$O/count.log" >&2
					exit 1
				fi
				echo "$a $b" | awk -v n="$PAIRS" -v row="$nr,$ids,$online,$loop" \
					'{ printf "%s,%g,%g\n", row, ($3 - $1) / n, ($4 - $2) / n }'
			done
		done
	done
done
