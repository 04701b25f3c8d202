# One command per job; see README.md.
#   make check                      no kernel tree needed (this is CI)
#   make tree KERNEL_SRC=...        build/linux = rc1 + compat + series
#   make export                     build/linux commits -> patches/
#   make kernel-test KERNEL_SRC=... apply, build smp/debug/up, boot, report
#   make bisect KERNEL_SRC=...      build every prefix in every config
#   make bench KERNEL_SRC=...       base vs patched benchmark -> results/
#   make soak KERNEL_SRC=... [MINUTES=10]
.PHONY: check deps tree export kernel-test bisect bench soak clean

export KERNEL_SRC MINUTES

check:
	@rig/deps.sh check
	@rig/check.sh

deps:
	@rig/deps.sh kernel

tree: deps
	@rig/tree.sh

export:
	@rig/export.sh

kernel-test: deps
	@rig/kernel-test.sh

bisect: deps
	@rig/bisect.sh

bench: deps
	@rig/bench.sh

soak: deps
	@rig/soak.sh

clean:
	rm -rf build
