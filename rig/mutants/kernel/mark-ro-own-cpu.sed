# mark_files_ro() (emergency remount read-only) looks only at the list
# of the CPU it runs on and the superblock's own list: files open for
# writing on other CPUs keep FMODE_WRITE after the remount.
# Killed by: emergency_ro (vfstest: a writer pinned to each CPU on an
# ext2 on /dev/ram0, sysrq u; each must lose FMODE_WRITE), run by name on
# smp (rc1's emergency remount trips lockdep on its own).
# file: fs/file_table.c
# config: smp
# boot: 2 tap /bin/tap,/bin/vfstest,emergency_ro
# boot: 4 tap /bin/tap,/bin/vfstest,emergency_ro
/^void mark_files_ro(/,/^}/s/^\tfor_each_sb_files_list(list, sb, i) {$/&\n\t\tif (i < nr_cpu_ids \&\& i != smp_processor_id())\n\t\t\tcontinue;/
