// SPDX-License-Identifier: GPL-2.0
// BPF_STATIC_KEY_UPDATE on several key instances at once (map_fds,
// map_fd_cnt): four programs, each with its own instance of one key and four
// sites (2-byte and 5-byte, both polarities). One call flips all of them,
// checked by running every program with BPF_PROG_TEST_RUN before and after;
// a call on a subset flips only that subset; each key's map_extra reports
// its state and the xlated sites stay as loaded; the debug per-site path
// (CONFIG_BPF_STATIC_KEY_DEBUG: one site at a time) gives the same behaviour
// and the same jited bytes as the batch; the single-key form (map_fd) still
// works; libbpf's bpf_static_keys_update() is the same call.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_batch.h"
#include <bpf/bpf.h>

#define NPROG 4
static int keys[NPROG], progs[NPROG];

/*
 * "p0=5 p1=21 ..." and a check against the state of each program: its
 * result, its key's map_extra, its xlated sites as loaded
 */
static void check(const char *what, const int *on)
{
	int i;

	printf("%s:", what);
	for (i = 0; i < NPROG; i++) {
		__u32 got = prog_run(progs[i]), want = 16 * i + (on[i] ? BATCH_ON : BATCH_OFF);

		printf(" p%d=%u", i, got);
		if (got != want) {
			printf(" (FAIL: want %u)", want);
			failures++;
		}
		if (static_key_state(keys[i]) != on[i]) {
			printf(" (FAIL: map_extra state %d)", static_key_state(keys[i]));
			failures++;
		}
		if (batch_xlated_changed(progs[i])) {
			printf(" (FAIL: xlated sites changed)");
			failures++;
		}
	}
	printf("\n");
}

static void expect_ok(const char *what, int err)
{
	if (err) {
		printf("FAIL: %s: %s\n", what, errname(err));
		failures++;
	}
}

static unsigned char jit[NPROG][4][4096];
static __u32 jit_len[NPROG][4];

static void snap(int slot)
{
	int i;

	for (i = 0; i < NPROG; i++)
		jit_len[i][slot] = prog_jited(progs[i], jit[i][slot], sizeof(jit[i][slot]));
}

static int same(int a, int b)
{
	int i;

	for (i = 0; i < NPROG; i++)
		if (jit_len[i][a] != jit_len[i][b] || memcmp(jit[i][a], jit[i][b], jit_len[i][a]))
			return 0;
	return 1;
}

/* bytes that differ between two snapshots of program @i */
static int diff_bytes(int i, int a, int b)
{
	__u32 k;
	int n = 0;

	for (k = 0; k < jit_len[i][a]; k++)
		n += jit[i][a][k] != jit[i][b][k];
	return n;
}

int main(void)
{
	int all_off[NPROG] = { 0 }, all_on[NPROG] = { 1, 1, 1, 1 };
	int some[NPROG] = { 0, 1, 0, 1 }, sub[2], i;
	LIBBPF_OPTS(bpf_static_key_update_opts, opts);

	require_static_keys_kernel();
	for (i = 0; i < NPROG; i++)
		batch_load(i, &keys[i], &progs[i]);

	// CHECK: loaded: p0=5 p1=21 p2=37 p3=53
	check("loaded", all_off);
	snap(0);

	// CHECK-NEXT: batch on: p0=10 p1=26 p2=42 p3=58
	expect_ok("batch on", keys_update(keys, NPROG, 1, 0));
	check("batch on", all_on);
	snap(1);
	// CHECK-NEXT: batch on again: p0=10 p1=26 p2=42 p3=58
	expect_ok("batch on again", keys_update(keys, NPROG, 1, 0));
	check("batch on again", all_on);

	// CHECK-NEXT: batch off: p0=5 p1=21 p2=37 p3=53
	expect_ok("batch off", keys_update(keys, NPROG, 0, 0));
	check("batch off", all_off);
	snap(2);

	// the jited image: off is the load-time image again; on differs from
	// it at the four sites only. x86: 2 + 2 bytes (66 90 <-> eb xx) and
	// 3 to 5 for each 5-byte site (0f 1f 44 00 00 <-> e9 xx xx xx xx: the
	// top bytes of a short rel32 are 00 like the nop's); other JITs: one
	// 4-byte instruction per site, at least one byte changed each
	// CHECK-NEXT: jited after batch off == at load: yes
	printf("jited after batch off == at load: %s\n", same(0, 2) ? "yes" : "no");
	if (!same(0, 2))
		failures++;
	for (i = 0; i < NPROG; i++) {
		int n = diff_bytes(i, 0, 1);

#ifdef __x86_64__
		if (n < 8 || n > 14) {
#else
		if (n < 4 || n > 16) {
#endif
			printf("FAIL: program %d: %d jited bytes changed by the flip\n", i, n);
			failures++;
		}
	}

	// CHECK-NEXT: batch p1,p3 on: p0=5 p1=26 p2=37 p3=58
	sub[0] = keys[3];
	sub[1] = keys[1];
	expect_ok("batch p1,p3 on", keys_update(sub, 2, 1, 0));
	check("batch p1,p3 on", some);
	// CHECK-NEXT: batch all off: p0=5 p1=21 p2=37 p3=53
	expect_ok("batch all off", keys_update(keys, NPROG, 0, 0));
	check("batch all off", all_off);

	// CHECK-NEXT: per-site on: p0=10 p1=26 p2=42 p3=58
	expect_ok("per-site on", keys_update(keys, NPROG, 1, TEST_STATIC_KEY_UPDATE_PER_SITE));
	check("per-site on", all_on);
	snap(3);
	// CHECK-NEXT: jited per-site on == batch on: yes
	printf("jited per-site on == batch on: %s\n", same(1, 3) ? "yes" : "no");
	if (!same(1, 3))
		failures++;
	// CHECK-NEXT: per-site off: p0=5 p1=21 p2=37 p3=53
	expect_ok("per-site off", keys_update(keys, NPROG, 0, TEST_STATIC_KEY_UPDATE_PER_SITE));
	check("per-site off", all_off);

	// CHECK-NEXT: single key p2 on: p0=5 p1=21 p2=42 p3=53
	expect_ok("single key p2 on", static_key_update(keys[2], 1));
	check("single key p2 on", (int[NPROG]){ 0, 0, 1, 0 });
	// CHECK-NEXT: one-fd batch p2 off: p0=5 p1=21 p2=37 p3=53
	expect_ok("one-fd batch p2 off", keys_update(&keys[2], 1, 0, 0));
	check("one-fd batch p2 off", all_off);

	// CHECK-NEXT: libbpf on: p0=10 p1=26 p2=42 p3=58
	expect_ok("libbpf on", bpf_static_keys_update(keys, NPROG, true, NULL) ? -errno : 0);
	check("libbpf on", all_on);
	// CHECK-NEXT: libbpf off with opts: p0=5 p1=21 p2=37 p3=53
	expect_ok("libbpf off with opts", bpf_static_keys_update(keys, NPROG, false, &opts) ? -errno : 0);
	check("libbpf off with opts", all_off);
	// CHECK-NEXT: libbpf no fds: EINVAL
	expect_err("libbpf no fds", bpf_static_keys_update(keys, 0, true, NULL), -EINVAL);

	for (i = 0; i < NPROG; i++) {
		close(progs[i]);
		close(keys[i]);
	}
	// CHECK: PASSED
	return finish();
}
