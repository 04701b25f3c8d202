# do_umount() changes the mount tree (umount_tree()) under the read side
# of vfsmount_lock: path walkers on other CPUs see the tree change under
# them, and two umounts can run their sections at once.
# Killed by: mount_walkers and umount_busy (vfstest), under lockdep and
# DEBUG_LIST on faults.
# file: fs/namespace.c
# config: faults
/^static int do_umount(/,/^}/s/br_write_lock(vfsmount_lock);/br_read_lock(vfsmount_lock);/
/^static int do_umount(/,/^}/s/br_write_unlock(vfsmount_lock);/br_read_unlock(vfsmount_lock);/
