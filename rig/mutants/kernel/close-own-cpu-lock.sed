# The last close takes the lock of the CPU it runs on, not the lock of
# the CPU whose list the file is on (recorded at open): a file opened on
# one CPU and closed on another is unlinked under the wrong lock while
# the first CPU adds files to the same list.
# Killed by: close_other_cpu (vfstest: files opened on one CPU, closed on
# another, while a third opens; DEBUG_LIST and slub_debug on faults).
# file: fs/file_table.c
# config: faults
/^void file_sb_list_del(/,/^}/s/^\t\tcpu = file_list_cpu(file);$/\t\tcpu = raw_smp_processor_id();/
