// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A pin that fails half-way removes what it pinned, so that closing the
// object detaches its links: flip_one and flip_two attached over a veth
// pair, then pinned in a directory where links/flip_two:1 is already taken
// (by a map of another's). bpfkeys_pin() fails naming that pin; after
// bpfkeys_close() no XDP program is attached to either device, and the
// directory holds only what was there before.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/flip_pair.c -o %t/pair.o
// RUN: %bpfld -o %t/linked.o %t/pair.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
//
// CHECK: libbpfkeys: {{.*}}linked.o: error: pin /sys/fs/bpf/bpfkeys-pin-fails-{{[0-9]+}}/links/flip_two:1: File exists
// CHECK-NEXT: pin: File exists
// CHECK-NEXT: after close: XDP on veth_rx: none, on veth_tx: none
// CHECK-NEXT: left in the directory: links links/flip_two:1
#include <sys/stat.h>
#include <linux/if_link.h>

#include "kill_check.h"

static uint32_t xdp_prog(const char *ifname)
{
	uint32_t id = 0;

	if (bpf_xdp_query_id((int)if_nametoindex(ifname), XDP_FLAGS_DRV_MODE, &id))
		fail("%s: XDP query: %s", ifname, strerror(errno));
	return id;
}

static void list_dir(const char *dir, const char *prefix)
{
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d))) {
		char path[512], name[512];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		snprintf(name, sizeof(name), "%s%s", prefix, e->d_name);
		printf(" %s", name);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			strcat(name, "/");
			list_dir(path, name);
		}
	}
	if (d)
		closedir(d);
}

int main(int argc, char **argv)
{
	struct bpfkeys_object *obj;
	char path[256];
	int rx, tx, map, err;

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	kill_mount_bpffs();
	snprintf(kill_pin_dir, sizeof(kill_pin_dir), "/sys/fs/bpf/bpfkeys-pin-fails-%d", getpid());
	atexit(kill_remove_pins);
	rx = veth_pair_in_own_netns();
	tx = (int)if_nametoindex("veth_tx");
	snprintf(path, sizeof(path), "%s/links", kill_pin_dir);
	if (mkdir(kill_pin_dir, 0700) || mkdir(path, 0700))
		fail("mkdir: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/links/flip_two:1", kill_pin_dir);
	map = bpf_map_create(BPF_MAP_TYPE_ARRAY, "not_ours", 4, 4, 1, NULL);
	if (map < 0 || bpf_obj_pin(map, path))
		fail("pin %s: %s", path, strerror(errno));
	close(map);

	obj = stock_open(argv[1], NULL);
	if (bpfkeys_load(obj) || !bpfkeys_attach_xdp(obj, "flip_one", rx) ||
	    !bpfkeys_attach_xdp(obj, "flip_two", tx))
		fail("load, attach: %s", bpfkeys_errmsg(obj));
	err = bpfkeys_pin(obj, kill_pin_dir);
	printf("pin: %s\n", err ? strerror(-err) : "pinned");
	bpfkeys_close(obj);
	printf("after close: XDP on veth_rx: %s, on veth_tx: %s\n",
	       xdp_prog("veth_rx") ? "attached" : "none",
	       xdp_prog("veth_tx") ? "attached" : "none");
	printf("left in the directory:");
	list_dir(kill_pin_dir, "");
	printf("\n");
	return 0;
}
