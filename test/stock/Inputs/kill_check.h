/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kill tests of pinned flips (Inputs/flip_pair.c: flip_one on veth_rx,
 * flip_two on veth_tx, each through a pinned XDP link): load and pin, flip
 * from another process, and after each kill check the directory: opened
 * (which recovers an interrupted flip), the recorded states equal what every
 * pinned link and progs/ pin runs (BPF_PROG_TEST_RUN), no journal or :new
 * pin is left, and exactly two programs use the object's maps.
 */
#ifndef KILL_CHECK_H
#define KILL_CHECK_H

#include <dirent.h>
#include <sys/mount.h>
#include <sys/vfs.h>
#include <time.h>

#include "veth_traffic.h"

static char kill_pin_dir[128];

static void kill_remove_pins(void)
{
	run_cmd("rm -rf %s", kill_pin_dir);
}

static inline void kill_mount_bpffs(void)
{
	struct statfs st;

	if (statfs("/sys/fs/bpf", &st) == 0 && st.f_type == 0xcafe4a11)
		return;
	if (mount("bpf", "/sys/fs/bpf", "bpf", 0, NULL))
		fail("mount bpffs: %s", strerror(errno));
}

/* quiet: the library's messages of a check are not the test's output */
static int kill_quiet(enum libbpfkeys_print_level level, const char *fmt, va_list ap, void *ctx)
{
	(void)level;
	(void)fmt;
	(void)ap;
	(void)ctx;
	return 0;
}

/* load OBJ, attach both programs over veth_rx/veth_tx, pin, close */
static inline void kill_setup(const char *object, const char *name)
{
	struct bpfkeys_object *obj;
	int rx, tx;

	setvbuf(stderr, NULL, _IONBF, 0);
	kill_mount_bpffs();
	snprintf(kill_pin_dir, sizeof(kill_pin_dir), "/sys/fs/bpf/%s-%d", name, getpid());
	atexit(kill_remove_pins);
	rx = veth_pair_in_own_netns();
	tx = (int)if_nametoindex("veth_tx");
	obj = stock_open(object, NULL);
	if (bpfkeys_load(obj) || !bpfkeys_attach_xdp(obj, "flip_one", rx) ||
	    !bpfkeys_attach_xdp(obj, "flip_two", tx) || bpfkeys_pin(obj, kill_pin_dir))
		fail("load, attach, pin: %s", bpfkeys_errmsg(obj));
	bpfkeys_close(obj);
}

/* one flip of both keys to the opposite of key_a's state, by this process */
static inline int kill_flip(const char *dir)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = kill_quiet);
	struct bpfkeys_object *obj = bpfkeys_open_pinned(dir, &opts);
	bool on;
	int n;

	if (!obj)
		return 1;
	on = !bpfkeys_key_state(obj, "key_a");
	struct bpfkeys_setting both[] = { { "key_a", on }, { "key_b", on } };
	n = bpfkeys_flip(obj, both, 2);
	bpfkeys_close(obj);
	return n == 2 ? 0 : 1;
}

static inline unsigned int kill_run_states(int prog_fd)
{
	unsigned char packet[64] = { 0xee };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = packet, .data_size_in = sizeof(packet),
		    .repeat = 1);

	if (prog_fd < 0 || bpf_prog_test_run_opts(prog_fd, &opts) || opts.retval < 16)
		return 99;
	return opts.retval - 16;
}

/* programs whose maps include map_id */
static inline int kill_programs_using(uint32_t map_id)
{
	uint32_t id = 0;
	int count = 0;

	while (!bpf_prog_get_next_id(id, &id)) {
		uint32_t maps[16], len;
		struct bpf_prog_info info;
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		info.nr_map_ids = 16;
		info.map_ids = (uint64_t)(unsigned long)maps;
		len = sizeof(info);
		if (!bpf_obj_get_info_by_fd(fd, &info, &len))
			for (uint32_t i = 0; i < info.nr_map_ids && i < 16; i++)
				count += maps[i] == map_id;
		close(fd);
	}
	return count;
}

static inline uint32_t kill_map_id(const char *dir)
{
	struct bpf_map_info info;
	uint32_t len = sizeof(info);
	int fd = pinned_fd(dir, "maps/seen");

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		fail("maps/seen: %s", strerror(errno));
	close(fd);
	return info.id;
}

/* every pin of SUB (links, progs) runs the states; no :new pin; how many */
static inline int kill_check_pins(const char *dir, const char *sub, unsigned int states, char *why,
				  size_t why_size)
{
	char path[256];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	d = opendir(path);
	while (d && (e = readdir(d))) {
		char pin[512];
		int fd, prog;

		if (e->d_name[0] == '.')
			continue;
		snprintf(pin, sizeof(pin), "%s/%s", path, e->d_name);
		if (strstr(e->d_name, ":new")) {
			snprintf(why, why_size, "%s left", pin);
			n = -1;
			break;
		}
		fd = bpf_obj_get(pin);
		prog = strcmp(sub, "links") ? fd : bpf_prog_get_fd_by_id(link_prog_id(fd));
		if (kill_run_states(prog) != states) {
			snprintf(why, why_size, "%s runs states %u, %u recorded", pin,
				 kill_run_states(prog), states);
			n = -1;
		}
		if (prog != fd)
			close(prog);
		close(fd);
		if (n < 0)
			break;
		n++;
	}
	if (d)
		closedir(d);
	return n;
}

/* 0 if the directory is consistent after a recovery, else why in why[] */
static inline int kill_check(const char *dir, uint32_t map_id, char *why, size_t why_size)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = kill_quiet);
	struct bpfkeys_object *obj = bpfkeys_open_pinned(dir, &opts);
	char journal[256];
	unsigned int states;
	int links, progs, programs = 0;

	why[0] = '\0';
	if (!obj) {
		snprintf(why, why_size, "open: %s", strerror(errno));
		return -1;
	}
	states = (unsigned int)bpfkeys_key_state(obj, "key_a") |
		 (unsigned int)bpfkeys_key_state(obj, "key_b") << 1;
	bpfkeys_close(obj);
	if (states != 0 && states != 3) {
		snprintf(why, why_size, "recorded states %u: a key flipped alone", states);
		return -1;
	}
	snprintf(journal, sizeof(journal), "%s/journal", dir);
	if (access(journal, F_OK) == 0) {
		snprintf(why, why_size, "%s left", journal);
		return -1;
	}
	links = kill_check_pins(dir, "links", states, why, why_size);
	progs = links < 0 ? -1 : kill_check_pins(dir, "progs", states, why, why_size);
	if (links < 0 || progs < 0)
		return -1;
	if (links != 2 || progs != 2) {
		snprintf(why, why_size, "%d links, %d programs pinned", links, progs);
		return -1;
	}
	/* a killed flipper's programs are freed after its exit, asynchronously */
	for (int i = 0; i < 200 && (programs = kill_programs_using(map_id)) != 2; i++)
		usleep(10000);
	if (programs != 2) {
		snprintf(why, why_size, "%d programs use the object's maps, 2 expected", programs);
		return -1;
	}
	return 0;
}

static inline double kill_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

#endif /* KILL_CHECK_H */
