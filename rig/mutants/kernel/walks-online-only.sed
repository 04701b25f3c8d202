# The remount walks (fs_may_remount_ro() and mark_files_ro()) cover the
# lists of the online CPUs only: files left on the list of a CPU that
# went offline are missed, so remount,ro succeeds under a file open for
# writing.
# Killed by: the suite's remount test with files of an offline CPU
# (vfstest's remount_offline, a CPU taken offline with a file open for
# writing on its list), which expects EBUSY.
# file: fs/file_table.c
# config: faults
/^static struct list_head \*sb_files_next_list(/,/^}/s/\*i = cpumask_next(\*i, cpu_possible_mask);/*i = cpumask_next(*i, cpu_online_mask);/
