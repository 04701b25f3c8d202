# do_umount() checks that the mount is not busy and detaches it
# (umount_tree()) under the read side of vfsmount_lock: a path walk on
# another CPU can find the mount and take a reference between the check
# and the detach, so a non-lazy umount succeeds on a mount in use.  (Two
# umounts cannot meet there: namespace_sem orders them.)
# Killed by: umount_race (vfstest: walkers open the mount point and hold a
# file of it while umount() runs in a loop; a walker that holds a file of
# a mount that umount() has removed fails it), at 2 or 4 CPUs on faults.
# Survived the suite before umount_race was written (series 4e72895e).
# file: fs/namespace.c
# config: faults
/^static int do_umount(/,/^}/s/br_write_lock(vfsmount_lock);/br_read_lock(vfsmount_lock);/
/^static int do_umount(/,/^}/s/br_write_unlock(vfsmount_lock);/br_read_unlock(vfsmount_lock);/
