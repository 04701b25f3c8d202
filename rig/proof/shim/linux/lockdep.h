/*
 * Stand-in for <linux/lockdep.h>.  The types and STATIC_LOCKDEP_MAP_INIT()
 * are as in the kernel, trimmed to the fields used here; lock_acquire()
 * and lock_release() are the machine's small lockdep (shim/shim.c), which
 * records class dependencies and reports cycles and recursion.
 */
#ifndef LGSHIM_LOCKDEP_H
#define LGSHIM_LOCKDEP_H

struct lock_class_key {
	char dummy;
};

struct lockdep_map {
	struct lock_class_key *key;
	const char *name;
};

#define STATIC_LOCKDEP_MAP_INIT(_name, _key) \
	{ .name = (_name), .key = (void *)(_key), }

void lock_acquire(struct lockdep_map *lock, unsigned int subclass,
		  int trylock, int read, int check,
		  struct lockdep_map *nest_lock, unsigned long ip);
void lock_release(struct lockdep_map *lock, int nested, unsigned long ip);

#endif
