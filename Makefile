# One command per job; see rig/README.md ("Jobs" and "Knobs").
#   make check                      no kernel tree needed (this is CI)
#   make microbench                 make check, then results/microbench.csv
#   make count                      make check, then results/count.csv
#   make tree KERNEL_SRC=...        build/linux = rc1 + compat + series
#   make export                     build/linux commits -> patches/
#   make kernel-test KERNEL_SRC=... build, boot, judge -> results/REPORT.md
#   make bisect KERNEL_SRC=...      build every prefix in every config
#   make bench KERNEL_SRC=...       base vs patched benchmark -> results/
#   make soak KERNEL_SRC=... [MINUTES=10]
#   make mutants KERNEL_SRC=...     does the booted suite kill the kernel
#                                   mutants? -> results/mutants.md
#   make sizes                      struct file, compiled -> results/sizes.csv
#                                   (after the smp and i386 builds)
.PHONY: check microbench count tree export kernel-test bisect bench soak mutants sizes clean

check:
	@rig/deps.sh check
	@rig/check.sh

microbench: check
	cp build/check/microbench.csv results/microbench.csv
	@rig/index.sh

count: check
	cp build/check/count.csv results/count.csv
	@rig/index.sh

tree:
	@rig/deps.sh tree
	@rig/tree.sh

export:
	@rig/export.sh

sizes:
	@rig/sizes.sh

mutants:
	@rig/deps.sh kernel-test
	@rig/mutants.sh

kernel-test bisect bench soak:
	@rig/deps.sh $@
	@rig/$@.sh

clean:
	rm -rf build
