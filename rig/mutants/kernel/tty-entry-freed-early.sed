# tty_del_file() frees a file's tty entry before taking it off the tty's
# list: the list keeps a freed entry, which the next walker (hangup,
# SELinux's flush) or list_del() reads.
# Killed by: pty_storm (vfstest), slub_debug poisoning on faults.
# file: drivers/char/tty_io.c
# config: faults
/^void tty_del_file(/,/^}/s/^\tspin_lock(&tty_files_lock);$/\tkfree(entry);\n&/
