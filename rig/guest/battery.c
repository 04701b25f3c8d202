/*
 * battery: a deterministic differential syscall battery for the VFS paths
 * the series touches.  One line per call:
 *
 *   BAT <n> <what> = <return value> <errno or ->
 *
 * Run on the base and on the patched kernel, the two outputs must be
 * identical (the rig diffs them).  Everything happens under ROOT, which it
 * mounts itself; nothing it does depends on time, pids or addresses.
 *
 *   battery [ROOT]        default ROOT: /tmp/battery
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MS_SHARED
#define MS_SHARED	(1 << 20)
#define MS_PRIVATE	(1 << 18)
#define MS_SLAVE	(1 << 19)
#define MS_UNBINDABLE	(1 << 17)
#endif
#ifndef MNT_EXPIRE
#define MNT_EXPIRE	4
#endif
#ifndef UMOUNT_NOFOLLOW
#define UMOUNT_NOFOLLOW	8
#endif

static int n;
static char root[256] = "/tmp/battery";
/*
 * The lines are collected in an unlinked file and printed at the end, so
 * that no kernel message printed during a call can land inside one.
 */
static FILE *out;

static const char *ename(int e)
{
	static const struct { int e; const char *s; } t[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EIO, "EIO" },
		{ EBADF, "EBADF" }, { EACCES, "EACCES" }, { EFAULT, "EFAULT" },
		{ ENOTBLK, "ENOTBLK" }, { EBUSY, "EBUSY" }, { EEXIST, "EEXIST" },
		{ EXDEV, "EXDEV" }, { ENODEV, "ENODEV" }, { ENOTDIR, "ENOTDIR" },
		{ EISDIR, "EISDIR" }, { EINVAL, "EINVAL" }, { EMFILE, "EMFILE" },
		{ ETXTBSY, "ETXTBSY" }, { ENOSPC, "ENOSPC" }, { EROFS, "EROFS" },
		{ EMLINK, "EMLINK" }, { ENAMETOOLONG, "ENAMETOOLONG" },
		{ ENOTEMPTY, "ENOTEMPTY" }, { ELOOP, "ELOOP" },
		{ ENOSYS, "ENOSYS" }, { EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" },
	};
	static char buf[16];
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].e == e)
			return t[i].s;
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

/* Report one call: its description, its result, errno when it failed. */
static long report(long r, const char *fmt, ...)
{
	char what[512];
	int e = errno;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	fprintf(out, "BAT %03d %s = %ld %s\n", ++n, what, r, r < 0 ? ename(e) : "-");
	fflush(out);
	errno = e;
	return r;
}

#define CALL(expr, ...)	(errno = 0, report((long)(expr), __VA_ARGS__))

static char *P(const char *rel)
{
	static char bufs[8][PATH_MAX + 64];
	static int k;
	char *b = bufs[k++ % 8];

	snprintf(b, sizeof(bufs[0]), "%s/%s", root, rel);
	return b;
}

/* The path relative to ROOT, for printing what getcwd() returned. */
static const char *rel(const char *p)
{
	size_t l = strlen(root);

	if (!p)
		return "(null)";
	if (!strncmp(p, root, l))
		return p[l] ? p + l : "/";
	return p;
}

static void show_cwd(const char *what)
{
	char buf[PATH_MAX];
	char *r;

	errno = 0;
	r = getcwd(buf, sizeof(buf));
	fprintf(out, "BAT %03d getcwd %s = %s %s\n", ++n, what,
	       r ? rel(r) : "-1", r ? "-" : ename(errno));
	fflush(out);
}

/* Mounts below ROOT as /proc/self/mountinfo shows them, ids left out. */
static void show_mounts(const char *when)
{
	char line[1024], mp[512], rest[512], opt[512];
	FILE *f = fopen("/proc/self/mountinfo", "r");
	size_t l = strlen(root);
	int k = 0;

	if (!f) {
		report(-1, "open mountinfo %s", when);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		/* id parent major:minor root mountpoint options rest */
		if (sscanf(line, "%*d %*d %*s %*s %511s %511s %511[^\n]",
			   mp, opt, rest) != 3)
			continue;
		if (strncmp(mp, root, l))
			continue;
		fprintf(out, "BAT %03d mount %s: %s %s %s\n", ++n, when,
		       mp[l] ? mp + l : "/", opt, rest);
		k++;
	}
	fclose(f);
	fprintf(out, "BAT %03d mounts %s: %d\n", ++n, when, k);
	fflush(out);
}

/*
 * A forked child numbers its lines on from its parent's count; it exits
 * with how many it printed, and the parent counts on from there.
 */
static int n_fork;

static pid_t child(void)
{
	fflush(out);
	n_fork = n;
	return fork();
}

static void child_exit(void)
{
	fflush(out);
	_exit(n - n_fork);
}

static void child_wait(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) == pid && WIFEXITED(st))
		n += WEXITSTATUS(st);
	else
		report(-1, "child did not exit");
}

static int mnt_tmpfs(const char *where, unsigned long flags)
{
	return CALL(mount("tmpfs", P(where), "tmpfs", flags, "size=1m"),
		    "mount tmpfs %s flags %#lx", where, flags);
}

/* remount ROOT/rel read-only (ro) or read-write, reported as what */
static long remount_as(const char *rel, int ro, const char *what)
{
	return CALL(mount("none", P(rel), NULL,
			  MS_REMOUNT | (ro ? MS_RDONLY : 0), NULL), "%s", what);
}

static void mk(const char *d)
{
	CALL(mkdir(P(d), 0755), "mkdir %s", d);
}

static void touch(const char *f)
{
	int fd = CALL(open(P(f), O_CREAT | O_WRONLY, 0644), "create %s", f);

	if (fd >= 0)
		close(fd);
}

/* open in every access mode on one file, closing what opened */
static void open_modes(const char *f)
{
	static const struct { int fl; const char *s; } m[] = {
		{ O_RDONLY, "O_RDONLY" }, { O_WRONLY, "O_WRONLY" },
		{ O_RDWR, "O_RDWR" }, { O_WRONLY | O_TRUNC, "O_WRONLY|O_TRUNC" },
		{ O_RDWR | O_APPEND, "O_RDWR|O_APPEND" },
		{ O_RDONLY | O_CREAT, "O_RDONLY|O_CREAT" },
		{ O_WRONLY | O_CREAT | O_EXCL, "O_WRONLY|O_CREAT|O_EXCL" },
		{ 3, "O_ACCMODE(3)" }, { O_RDONLY | O_DIRECTORY, "O_DIRECTORY" },
		{ O_RDONLY | O_NOATIME, "O_RDONLY|O_NOATIME" },
	};
	unsigned int i;
	int fd;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		fd = CALL(open(P(f), m[i].fl, 0644), "open %s %s", f, m[i].s);
		if (fd >= 0)
			close(fd);
	}
}

static void basics(void)
{
	mk("a");
	mnt_tmpfs("a", 0);
	mk("a/d");
	touch("a/f");
	open_modes("a/f");
	remount_as("a", 1, "remount,ro a (no writers)");
	open_modes("a/f");
	touch("a/g");
	remount_as("a", 0, "remount,rw a");
	touch("a/g");
	{
		int w = CALL(open(P("a/f"), O_WRONLY), "open a/f for write");

		remount_as("a", 1, "remount,ro a with a writer");
		CALL(close(w), "close the writer");
		remount_as("a", 1, "remount,ro a after close");
		remount_as("a", 0, "remount,rw a");
	}
	{
		/* a file unlinked while open keeps remount,ro away */
		int r = CALL(open(P("a/g"), O_RDONLY), "open a/g read-only");

		CALL(unlink(P("a/g")), "unlink a/g");
		remount_as("a", 1, "remount,ro a with an unlinked open file");
		CALL(close(r), "close a/g");
		remount_as("a", 1, "remount,ro a after that");
		remount_as("a", 0, "remount,rw a");
	}
	show_mounts("after basics");
}

static void bind_move_propagation(void)
{
	mk("b");
	mk("c");
	CALL(mount(P("a"), P("b"), NULL, MS_BIND, NULL), "bind a on b");
	CALL(access(P("b/f"), F_OK), "access b/f");
	CALL(mount("none", P("b"), NULL, MS_REMOUNT | MS_BIND | MS_RDONLY,
		   NULL), "remount,bind,ro b");
	open_modes("b/f");
	CALL(mount("none", P("b"), NULL, MS_REMOUNT | MS_BIND, NULL),
	     "remount,bind,rw b");
	CALL(mount(P("b"), P("c"), NULL, MS_MOVE, NULL), "move b to c");
	CALL(access(P("c/f"), F_OK), "access c/f");
	CALL(access(P("b/f"), F_OK), "access b/f after the move");
	CALL(mount("none", P("a"), NULL, MS_SHARED, NULL), "make-shared a");
	mk("a/d/s");
	CALL(mount(P("a"), P("c"), NULL, MS_BIND, NULL), "bind a on c (peer)");
	mnt_tmpfs("a/d", 0);
	CALL(access(P("c/d/s"), F_OK), "propagated mount hides c/d/s");
	CALL(mount("none", P("c"), NULL, MS_SLAVE, NULL), "make-slave c");
	mnt_tmpfs("c/d", 0);
	CALL(mount("none", P("c"), NULL, MS_PRIVATE, NULL), "make-private c");
	CALL(mount("none", P("a"), NULL, MS_UNBINDABLE, NULL),
	     "make-unbindable a");
	CALL(mount(P("a"), P("b"), NULL, MS_BIND, NULL),
	     "bind an unbindable mount");
	CALL(mount(P("a"), P("b"), NULL, MS_BIND | MS_REC, NULL),
	     "rbind an unbindable mount");
	CALL(mount("none", P("a"), NULL, MS_PRIVATE, NULL), "make-private a");
	CALL(mount("none", P("a"), NULL, MS_SHARED | MS_PRIVATE, NULL),
	     "make-shared|private a");
	CALL(mount(P("a"), P("b"), NULL, MS_BIND | MS_REC, NULL), "rbind a on b");
	show_mounts("after bind/move/propagation");
	CALL(umount(P("c/d")), "umount c/d");
	CALL(umount(P("c/d")), "umount c/d again");
	CALL(umount(P("c")), "umount c (top)");
	CALL(umount(P("c")), "umount c (moved bind)");
	CALL(umount(P("c")), "umount c (nothing left)");
	CALL(umount2(P("b"), MNT_DETACH), "umount2 b MNT_DETACH");
	CALL(umount(P("a/d")), "umount a/d");
	show_mounts("after umounts");
}

static void umount_flags(void)
{
	int fd;

	mk("e");
	mnt_tmpfs("e", 0);
	touch("e/f");
	fd = CALL(open(P("e/f"), O_RDONLY), "open e/f");
	CALL(umount(P("e")), "umount busy e");
	CALL(umount2(P("e"), MNT_EXPIRE), "umount2 e MNT_EXPIRE busy");
	CALL(close(fd), "close e/f");
	CALL(umount2(P("e"), MNT_EXPIRE | MNT_DETACH),
	     "umount2 e MNT_EXPIRE|MNT_DETACH");
	CALL(umount2(P("e"), MNT_EXPIRE), "umount2 e MNT_EXPIRE (mark)");
	CALL(umount2(P("e"), MNT_EXPIRE), "umount2 e MNT_EXPIRE (expire)");
	mnt_tmpfs("e", 0);
	CALL(symlink(P("e"), P("elink")), "symlink elink -> e");
	CALL(umount2(P("elink"), UMOUNT_NOFOLLOW), "umount2 elink NOFOLLOW");
	CALL(umount2(P("elink"), 0), "umount2 elink (follows)");
	mnt_tmpfs("e", 0);
	CALL(umount2(P("e"), 0x80), "umount2 e unknown flag");
	CALL(umount2(P("e"), MNT_FORCE), "umount2 e MNT_FORCE");
	CALL(umount2(P("e"), MNT_DETACH), "umount2 e MNT_DETACH (nothing)");
}

static void cwd_and_root(void)
{
	int fd;
	pid_t pid;

	mk("g");
	mnt_tmpfs("g", 0);
	mk("g/h");
	mk("g/h/i");
	CALL(chdir(P("g/h/i")), "chdir g/h/i");
	show_cwd("in g/h/i");
	CALL(rmdir(P("g/h/i")), "rmdir g/h/i (the cwd)");
	show_cwd("in a deleted directory");
	CALL(chdir(P("g/h")), "chdir g/h");
	fd = CALL(open(".", O_RDONLY | O_DIRECTORY), "open g/h");
	CALL(umount2(P("g"), MNT_DETACH), "umount2 g MNT_DETACH (cwd inside)");
	show_cwd("in a detached mount");
	CALL(access("..", F_OK), "access .. from the detached mount");
	CALL(chdir(".."), "chdir .. in the detached mount");
	show_cwd("at the detached root");
	CALL(chdir(root), "chdir ROOT");
	CALL(fchdir(fd), "fchdir into the detached mount");
	show_cwd("after fchdir");
	CALL(close(fd), "close it");
	CALL(chdir(root), "chdir ROOT");

	mk("j");
	mnt_tmpfs("j", 0);
	mk("j/k");
	mnt_tmpfs("j/k", 0);
	mk("j/k/l");
	pid = child();
	if (pid == 0) {
		CALL(chroot(P("j")), "chroot j");
		CALL(chdir("/k/l"), "chdir /k/l in the chroot");
		show_cwd("in the chroot");
		CALL(chdir("/.."), "chdir /.. in the chroot");
		show_cwd("at the chroot's root");
		CALL(chroot("/k"), "chroot /k (nested, across a mount)");
		CALL(chdir("/"), "chdir /");
		show_cwd("in the nested chroot");
		child_exit();
	}
	child_wait(pid);
	CALL(umount(P("j/k")), "umount j/k");
	CALL(umount(P("j")), "umount j");
}

static void bad_input(void)
{
	char *page, *longp;
	long ps = sysconf(_SC_PAGESIZE);

	mk("x");
	if (!CALL(syscall(SYS_mount, NULL, P("x"), "tmpfs", 0, NULL),
		  "mount NULL source"))
		CALL(umount(P("x")), "umount it");
	CALL(syscall(SYS_mount, "tmpfs", NULL, "tmpfs", 0, NULL),
	     "mount NULL target");
	CALL(syscall(SYS_mount, "tmpfs", P("x"), NULL, 0, NULL),
	     "mount NULL type");
	CALL(syscall(SYS_umount2, NULL, 0), "umount2 NULL");
	CALL(syscall(SYS_open, NULL, O_RDONLY), "open NULL");
	CALL(chdir(""), "chdir empty path");

	/* a path that runs into an unmapped page, unterminated */
	page = mmap(NULL, 2 * ps, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		exit(1);
	munmap(page + ps, ps);
	memset(page, 'x', ps);
	CALL(syscall(SYS_mount, "tmpfs", page + ps - 16, "tmpfs", 0, NULL),
	     "mount unterminated target");
	CALL(syscall(SYS_umount2, page + ps - 16, 0), "umount2 unterminated");
	CALL(syscall(SYS_open, page + ps - 16, O_RDONLY), "open unterminated");
	CALL(syscall(SYS_mount, "tmpfs", page, "tmpfs", 0, NULL),
	     "mount target of a whole page of x");

	longp = malloc(PATH_MAX + 64);
	memset(longp, 'y', PATH_MAX + 63);
	longp[0] = '/';
	longp[PATH_MAX + 63] = 0;
	CALL(mount("tmpfs", longp, "tmpfs", 0, NULL), "mount path > PATH_MAX");
	CALL(umount(longp), "umount path > PATH_MAX");
	CALL(open(longp, O_RDONLY), "open path > PATH_MAX");
	memset(longp, 'z', NAME_MAX + 8);
	longp[NAME_MAX + 8] = 0;
	CALL(mkdir(P(longp), 0755), "mkdir name > NAME_MAX");
	free(longp);

	if (!CALL(mount("tmpfs", P("x"), "tmpfs", 0x40000000UL, NULL),
		  "mount unknown flag bit 30"))
		CALL(umount(P("x")), "umount it");
	CALL(mount("tmpfs", P("x"), "nosuchfs", 0, NULL),
	     "mount unknown fs type");
	CALL(mount("tmpfs", P("a/f"), "tmpfs", 0, NULL),
	     "mount on a regular file");
	CALL(mount(P("a"), P("a/f"), NULL, MS_BIND, NULL),
	     "bind a directory on a file");
	CALL(mount(P("a/f"), P("a/d"), NULL, MS_BIND, NULL),
	     "bind a file on a directory");
	CALL(mount("tmpfs", P("nonexistent"), "tmpfs", 0, NULL),
	     "mount on a missing directory");
	CALL(umount(P("a/d")), "umount a non-mount");
	CALL(umount(P("nonexistent")), "umount a missing path");
	CALL(mount("none", P("a/d"), NULL, MS_REMOUNT, NULL),
	     "remount a non-mount");
	CALL(mount("none", P("e"), NULL, MS_REMOUNT | MS_RDONLY, NULL),
	     "remount an unmounted path");
	CALL(mount(P("a"), P("a/d"), NULL, MS_MOVE, NULL),
	     "move a mount below itself");
	CALL(mount(P("a/d"), P("b"), NULL, MS_MOVE, NULL),
	     "move a non-mount");
	CALL(mount("none", P("a"), NULL, MS_SHARED | MS_SLAVE, NULL),
	     "two propagation flags");
	CALL(mount("none", P("a/d"), NULL, MS_SHARED, NULL),
	     "make-shared a non-mount");
	if (!CALL(mount("tmpfs", P("x"), "tmpfs", 0, "size=nonsense"),
		  "mount with bad options"))
		CALL(umount(P("x")), "umount it");
}

static void unprivileged(void)
{
	pid_t pid = child();

	if (pid == 0) {
		CALL(setresgid(65534, 65534, 65534), "setresgid nobody");
		CALL(setresuid(65534, 65534, 65534), "setresuid nobody");
		CALL(mount("tmpfs", P("a/d"), "tmpfs", 0, NULL),
		     "unprivileged mount");
		CALL(umount(P("a")), "unprivileged umount");
		CALL(umount2(P("a"), MNT_DETACH), "unprivileged lazy umount");
		CALL(mount("none", P("a"), NULL, MS_REMOUNT | MS_RDONLY,
			   NULL), "unprivileged remount,ro");
		CALL(mount(P("a"), P("b"), NULL, MS_BIND, NULL),
		     "unprivileged bind");
		CALL(mount("none", P("a"), NULL, MS_PRIVATE, NULL),
		     "unprivileged make-private");
		CALL(chroot(P("a")), "unprivileged chroot");
		CALL(unshare(CLONE_NEWNS), "unprivileged unshare(CLONE_NEWNS)");
		CALL(open(P("a/f"), O_WRONLY), "unprivileged open for write");
		CALL(open(P("a/f"), O_RDONLY), "unprivileged open read-only");
		child_exit();
	}
	child_wait(pid);
}

static void namespace_copy(void)
{
	pid_t pid;

	mk("n");
	mnt_tmpfs("n", 0);
	mk("n/m");
	mnt_tmpfs("n/m", 0);
	pid = child();
	if (pid == 0) {
		CALL(unshare(CLONE_NEWNS), "unshare(CLONE_NEWNS)");
		show_mounts("in the new namespace");
		CALL(umount(P("n/m")), "umount n/m in the copy");
		CALL(umount(P("n")), "umount n in the copy");
		show_mounts("in the copy after umount");
		child_exit();
	}
	child_wait(pid);
	show_mounts("in the original after the copy's umounts");
	CALL(umount(P("n/m")), "umount n/m");
	CALL(umount(P("n")), "umount n");
}

int main(int argc, char **argv)
{
	int fd = open("/tmp/.battery-out", O_RDWR | O_CREAT | O_TRUNC | O_APPEND,
		      0600);
	char buf[4096];
	ssize_t k;

	if (fd < 0 || unlink("/tmp/.battery-out") || !(out = fdopen(fd, "a+"))) {
		perror("battery: output file");
		return 1;
	}
	setvbuf(out, NULL, _IOLBF, 0);
	if (argc > 1)
		snprintf(root, sizeof(root), "%s", argv[1]);
	umask(022);
	mkdir(root, 0755);
	if (mount("tmpfs", root, "tmpfs", 0, "mode=755")) {
		perror("battery: mount ROOT");
		return 1;
	}
	/* a private tree of its own: nothing propagates out of ROOT */
	mount("none", root, NULL, MS_PRIVATE, NULL);
	CALL(chdir(root), "chdir ROOT");
	basics();
	bind_move_propagation();
	umount_flags();
	cwd_and_root();
	bad_input();
	unprivileged();
	namespace_copy();
	show_mounts("at the end");
	CALL(chdir("/"), "chdir /");
	CALL(umount2(root, MNT_DETACH), "umount ROOT");
	fprintf(out, "BAT end: %d calls\n", n);
	fflush(out);
	lseek(fd, 0, SEEK_SET);
	while ((k = read(fd, buf, sizeof(buf))) > 0)
		if (write(1, buf, k) != k)
			return 1;
	return 0;
}
