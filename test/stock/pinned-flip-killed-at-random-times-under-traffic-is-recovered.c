// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// 1,000 pinned flips killed at random times (0-80 ms after the flipper
// starts, SIGKILL) while frames flow through both XDP links (flip_one on
// veth_rx, flip_two on veth_tx); after each kill the directory is opened
// (recovering the flip) and checked (Inputs/kill_check.h): recorded states
// equal what every link and progs/ pin runs, nothing of the flip is left,
// exactly 2 programs use the object's maps. The kill times come from a
// fixed seed; how many land during a flip depends on the machine, so the
// test asserts that some did and that every one was recovered.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/flip_pair.c -o %t/pair.o
// RUN: %bpfld -o %t/linked.o %t/pair.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 1000 2>&1 | FileCheck %s
//
// CHECK: kills: 1000, during a flip {{[1-9][0-9]*}}, after it {{[0-9]+}}, consistent after recovery 1000
// CHECK-NEXT: frames counted by the programs while flipping: yes
#include "kill_check.h"

static atomic_bool stop;

/* frames both ways until stop: veth_tx -> veth_rx runs flip_one, back flip_two */
static void *traffic(void *arg)
{
	struct sockaddr_ll to_rx, to_tx;
	int tx = packet_socket("veth_tx", &to_rx), rx = packet_socket("veth_rx", &to_tx);

	(void)arg;
	while (!atomic_load(&stop)) {
		send_frames(tx, &to_rx, 8);
		send_frames(rx, &to_tx, 8);
		usleep(500);
	}
	close(tx);
	close(rx);
	return NULL;
}

/* SIGKILL at `delay` us unless the child exits first (no waiting past its end) */
static int wait_or_kill(pid_t child, useconds_t delay, int *status)
{
	double until = kill_now() + delay / 1e6;
	pid_t got;

	while ((got = waitpid(child, status, WNOHANG)) == 0 && kill_now() < until)
		usleep(200);
	if (got == child)
		return 0;
	kill(child, SIGKILL);
	return waitpid(child, status, 0) == child ? 0 : -1;
}

int main(int argc, char **argv)
{
	int kills, during = 0, after = 0, consistent = 0, seen_fd;
	uint64_t frames;
	char why[512];
	uint32_t map_id;
	pthread_t thread;
	double start;

	if (argc != 3)
		fail("usage: %s LINKED.o KILLS", argv[0]);
	if (geteuid() != 0)
		fail("needs root");
	kills = atoi(argv[2]);
	kill_setup(argv[1], "bpfkeys-kill-random");
	map_id = kill_map_id(kill_pin_dir);
	seen_fd = pinned_fd(kill_pin_dir, "maps/seen");
	if (pthread_create(&thread, NULL, traffic, NULL))
		fail("pthread_create");
	srand(1);
	start = kill_now();
	for (int i = 0; i < kills; i++) {
		useconds_t delay = (useconds_t)(rand() % 80001);
		pid_t child;
		int status;

		fflush(stdout);
		child = fork();
		if (child < 0)
			fail("fork: %s", strerror(errno));
		if (child == 0)
			_exit(kill_flip(kill_pin_dir));
		if (wait_or_kill(child, delay, &status))
			fail("waitpid: %s", strerror(errno));
		if (WIFSIGNALED(status))
			during++;
		else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			after++;
		else
			printf("kill %d: the flip failed by itself (status %#x)\n", i, status);
		if (kill_check(kill_pin_dir, map_id, why, sizeof(why)))
			printf("kill %d after %u us: inconsistent: %s\n", i, delay, why);
		else
			consistent++;
	}
	atomic_store(&stop, true);
	pthread_join(thread, NULL);
	frames = runs_counted(seen_fd, 4);
	fprintf(stderr, "random kills: %d in %.1f s\n", kills, kill_now() - start);
	printf("kills: %d, during a flip %d, after it %d, consistent after recovery %d\n", kills,
	       during, after, consistent);
	printf("frames counted by the programs while flipping: %s\n", frames > 0 ? "yes" : "no");
	close(seen_fd);
	return 0;
}
