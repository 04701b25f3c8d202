# Not a bug: a variant.  The per-CPU lists of open files are never
# allocated, so every file goes on its superblock's own list, under the
# first possible CPU's lock: the path open() takes when alloc_percpu()
# fails.  The suite must pass on it (it exercises that failure path), and
# an icount bench of it shows what the per-CPU allocations cost others.
# file: fs/file_table.c
s/^\tlists = alloc_percpu(struct list_head);$/\tlists = NULL;/
