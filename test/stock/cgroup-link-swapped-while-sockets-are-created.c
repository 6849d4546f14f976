// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A cgroup/sock_create program through a cgroup bpf_link, driven by
// socket(2) calls of this process (moved into a cgroup v2 of its own) while
// another thread flips sock_key 300 times: every socket was counted exactly
// once, by one version or the other, and the link runs the program of the
// last flip. The process moves back and the cgroup goes at exit.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/cgroup_counter.c -o %t/cgroup.o
// RUN: %bpfld -o %t/linked.o %t/cgroup.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 300 | FileCheck %s
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <netinet/in.h>

#include "stock_test.h"

static char cgroup_root[64], cgroup_dir[128];

static void write_pid(const char *dir)
{
	char path[192];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%d\n", getpid()) < 0 || fclose(f))
		fail("join %s: %s", dir, strerror(errno));
}

static void leave_cgroup(void)
{
	char path[192];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cgroup_root);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%d\n", getpid());
		fclose(f);
	}
	rmdir(cgroup_dir);
}

struct flipper {
	struct bpfkeys_object *obj;
	int flips;
	atomic_int done;
	atomic_bool finished;
	int error;
};

static void *flip(void *arg)
{
	struct flipper *f = arg;

	for (int i = 0; i < f->flips; i++) {
		int n = bpfkeys_set(f->obj, "sock_key", !(i & 1));

		if (n != 1) {
			f->error = n;
			break;
		}
		atomic_fetch_add(&f->done, 1);
	}
	atomic_store(&f->finished, true);
	return NULL;
}

int main(int argc, char **argv)
{
	struct flipper flipper = { 0 };
	struct bpfkeys_object *obj;
	struct bpfkeys_link *link;
	pthread_t thread;
	uint64_t created = 0;
	int cgroup_fd, seen_fd;
	bool last = false;

	if (argc != 3)
		fail("usage: %s LINKED.o FLIPS", argv[0]);
	obj = stock_open_and_load(argv[1]);
	/* the cgroup v2 hierarchy: /sys/fs/cgroup itself, or its "unified" part (hybrid) */
	snprintf(cgroup_root, sizeof(cgroup_root), "/sys/fs/cgroup/unified");
	if (access("/sys/fs/cgroup/unified/cgroup.procs", W_OK))
		snprintf(cgroup_root, sizeof(cgroup_root), "/sys/fs/cgroup");
	snprintf(cgroup_dir, sizeof(cgroup_dir), "%s/bpfkeys-stock-%d", cgroup_root, getpid());
	if (mkdir(cgroup_dir, 0755))
		fail("mkdir %s: %s", cgroup_dir, strerror(errno));
	atexit(leave_cgroup);
	cgroup_fd = open(cgroup_dir, O_RDONLY | O_DIRECTORY);
	if (cgroup_fd < 0)
		fail("open %s: %s", cgroup_dir, strerror(errno));
	link = bpfkeys_attach_cgroup(obj, "count_sockets", cgroup_fd);
	if (!link)
		fail("attach: %s", bpfkeys_errmsg(obj));
	write_pid(cgroup_dir);
	seen_fd = bpfkeys_map_fd(obj, "seen"); /* seen[0]: sockets counted off, seen[1]: on */

	flipper.obj = obj;
	flipper.flips = atoi(argv[2]);
	if (pthread_create(&thread, NULL, flip, &flipper))
		fail("pthread_create");
	while (!last) {
		last = atomic_load(&flipper.finished); /* one more round after the last flip */
		for (int i = 0; i < 16; i++) {
			int fd = socket(AF_INET, SOCK_DGRAM, 0);

			if (fd < 0)
				fail("socket: %s", strerror(errno));
			close(fd);
			created++;
		}
	}
	pthread_join(thread, NULL);
	if (flipper.error)
		fail("flip: %d (%s)", flipper.error, bpfkeys_errmsg(obj));

	// CHECK: flips done: 300
	printf("flips done: %d\n", atomic_load(&flipper.done));
	// CHECK-NEXT: sockets counted == sockets created: yes
	printf("sockets counted == sockets created: %s\n",
	       runs_counted(seen_fd, 2) == created ? "yes" : "no");
	// CHECK-NEXT: both states seen: yes
	printf("both states seen: %s\n",
	       seen_count(seen_fd, 0) && seen_count(seen_fd, 1) ? "yes" : "no");
	// CHECK-NEXT: link runs the current program: yes
	printf("link runs the current program: %s\n",
	       link_prog_id(bpfkeys_link_fd(link)) == prog_id(obj, "count_sockets") ? "yes" : "no");
	fprintf(stderr, "%llu sockets: off %llu, on %llu\n", (unsigned long long)created,
		(unsigned long long)seen_count(seen_fd, 0),
		(unsigned long long)seen_count(seen_fd, 1));
	bpfkeys_close(obj);
	close(cgroup_fd);
	return 0;
}
