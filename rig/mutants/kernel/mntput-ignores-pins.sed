# The last mntput() ignores mnt_pinned: a mount that process accounting
# pins (acct() gives up the file's reference for a pin) is freed, and its
# superblock shut down, while the accounting file is still open on it.
# Killed by: acct_mntput (vfstest, faults config, -smp 4): a kernel BUG
# (a dentry still in use at umount) or a use after free that slub_debug
# reports.
# file: fs/namespace.c
# config: faults
# boot: 4 tap /bin/tap,/bin/vfstest,acct_mntput
s/^\tif (likely(!mnt->mnt_pinned)) {$/\tif (1) {/
