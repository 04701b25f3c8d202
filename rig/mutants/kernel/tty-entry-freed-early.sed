# tty_del_file() frees a file's tty entry before taking it off the tty's
# list: the list keeps a freed entry, which the next walker (hangup,
# SELinux's flush) or list_del() reads.
# Killed by: the first close of a tty file, at boot (init's): list_del()
# of the freed entry reads slub_debug's poison and faults (faults
# config); pty_storm (vfstest) would be next.
# file: drivers/char/tty_io.c
# config: faults
/^void tty_del_file(/,/^}/s/^\tspin_lock(&tty_files_lock);$/\tkfree(entry);\n&/
