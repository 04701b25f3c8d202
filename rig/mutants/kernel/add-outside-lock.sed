# open() puts the file on its CPU's list after dropping that CPU's lock:
# the list is changed unlocked while files opened there are closed from
# other CPUs.
# Killed by: close_other_cpu (vfstest), DEBUG_LIST on faults.
# file: fs/file_table.c
# config: faults
/^void file_sb_list_add(/,/^}/{/^\t\tlist_add(&file->f_u.fu_list, sb_files_cpu_list(sb, cpu));$/{N;s/^\(.*\)\n\(.*\)$/\2\n\1/}}
