# Not a bug: a variant.  A superblock never gets its per-CPU lists, so
# every file goes on its superblock's own list, under the first possible
# CPU's lock: the path open() takes when no slot of per-CPU list heads
# can be had.  The suite must pass on it (it exercises that failure
# path), and an icount bench of it shows what the per-CPU lists cost.
# file: fs/file_table.c
s/^\tlists = sb_files_get_slot();$/\tlists = NULL;/
