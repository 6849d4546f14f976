/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * libbpfkeys: static keys flipped at run time on stock kernels, by atomic
 * program replacement, on a stock libbpf (1.1 or later).
 *
 * An object linked by bpfld (raw: it still has .static_keys) is opened, every
 * static branch is fixed to its key's current state in memory (the rewrite of
 * `bpfkeys lower`: the same bytes for the same states) and loaded with libbpf.
 * A flip builds, for every program that reaches a changed key, the program
 * for the new states, loads it against the same maps (.bss/.data/.rodata
 * included, so map state survives), then swaps every attachment of those
 * programs with BPF_LINK_UPDATE. All or nothing: if one variant fails to
 * load or one link fails to update, nothing changes. docs/abi.md, "Stock
 * kernels: flips by program replacement", says what is atomic and what a
 * flip costs.
 *
 * Errors: functions return a negative errno (or NULL with errno set); the
 * message ("libbpfkeys: OBJECT: error: ...") goes to stderr and stays
 * available from bpfkeys_errmsg(). One object is not safe for concurrent
 * calls from several threads; its programs of course run concurrently.
 */
#ifndef BPF_STATIC_KEYS_STOCK_H
#define BPF_STATIC_KEYS_STOCK_H

#include <stdbool.h>
#include <stddef.h>

#include <bpf/libbpf.h>

#ifdef __cplusplus
extern "C" {
#endif

struct bpfkeys_object;
struct bpfkeys_link;

struct bpfkeys_open_opts {
	/* libbpf's object name, the prefix of the .bss/.data/.rodata map names;
	 * default: the file name without directory and ".o" */
	const char *object_name;
	/* keep the verifier's log of a program that fails to load
	 * (bpfkeys_verifier_log); without it only the program is named */
	bool keep_verifier_log;
};

/* Open a raw linked object (bpfld output, with .static_keys). Nothing is
 * loaded yet: key states and autoload can still be set. */
struct bpfkeys_object *bpfkeys_open_file(const char *path, const struct bpfkeys_open_opts *opts);
struct bpfkeys_object *bpfkeys_open_mem(const void *buf, size_t size, const char *name,
					const struct bpfkeys_open_opts *opts);
/* Before load: leave a program out (it is never loaded, in no variant). */
int bpfkeys_set_autoload(struct bpfkeys_object *obj, const char *program, bool autoload);
/* Lower for the current key states and load every program and map. */
int bpfkeys_load(struct bpfkeys_object *obj);
/* Detaches every link of the library, unloads, frees. NULL is a no-op. */
void bpfkeys_close(struct bpfkeys_object *obj);

/* Keys: static keys of the object, sorted by name. */
size_t bpfkeys_key_count(const struct bpfkeys_object *obj);
const char *bpfkeys_key_name(const struct bpfkeys_object *obj, size_t index);
/* 1 if on, 0 if off, -ENOENT if the object has no static key of that name */
int bpfkeys_key_state(const struct bpfkeys_object *obj, const char *key);

struct bpfkeys_setting {
	const char *key;
	bool on;
};

/*
 * Set the state of one or several keys at once. Before load, only records
 * the states. After load, replaces every program that reaches a key whose
 * state changes and swaps its links; returns the number of programs
 * replaced (0 if no state changed or no program uses the keys), or a
 * negative errno with every program, link and key state as before.
 */
int bpfkeys_flip(struct bpfkeys_object *obj, const struct bpfkeys_setting *settings, size_t count);
int bpfkeys_set(struct bpfkeys_object *obj, const char *key, bool on);

/* The object the current states lower to (`bpfkeys lower --set KEY=STATE`
 * for every key gives the same bytes), written to fd. */
int bpfkeys_write_lowered(struct bpfkeys_object *obj, int fd);

/* Programs of the object (subprograms are not programs), in object order. */
size_t bpfkeys_program_count(const struct bpfkeys_object *obj);
const char *bpfkeys_program_name(const struct bpfkeys_object *obj, size_t index);

/* After load. The program changes with each flip that replaces it: look it
 * up again, do not keep it. Maps stay the same. */
struct bpf_program *bpfkeys_program(const struct bpfkeys_object *obj, const char *name);
int bpfkeys_program_fd(const struct bpfkeys_object *obj, const char *name);
/* a map by its name in the object (".bss", ".rodata", ... for global data) */
int bpfkeys_map_fd(const struct bpfkeys_object *obj, const char *name);

/* Links owned by the object. Swapped atomically by BPF_LINK_UPDATE: */
struct bpfkeys_link *bpfkeys_attach_xdp(struct bpfkeys_object *obj, const char *program,
					int ifindex);
struct bpfkeys_link *bpfkeys_attach_cgroup(struct bpfkeys_object *obj, const char *program,
					   int cgroup_fd);
/* sk_lookup and flow_dissector programs, in the network namespace of netns_fd
 * (e.g. open("/proc/self/ns/net", O_RDONLY)) */
struct bpfkeys_link *bpfkeys_attach_netns(struct bpfkeys_object *obj, const char *program,
					  int netns_fd);
/* tcx (Linux 6.6+; libbpf 1.1 has no tcx API, so BPF_LINK_CREATE directly) */
struct bpfkeys_link *bpfkeys_attach_tcx(struct bpfkeys_object *obj, const char *program,
					int ifindex, bool egress);
/*
 * libbpf's auto-attach by section name (kprobe, fentry, tracepoint, ...).
 * Their links cannot be updated: a flip attaches the new program, then
 * detaches the old one, and both run in between. Refused unless flags has
 * BPFKEYS_ATTACH_OVERLAP, which says that the caller accepts this.
 */
#define BPFKEYS_ATTACH_OVERLAP 1u
struct bpfkeys_link *bpfkeys_attach(struct bpfkeys_object *obj, const char *program,
				    unsigned int flags);
/* the link's fd now (an overlap link gets a new one at each flip) */
int bpfkeys_link_fd(const struct bpfkeys_link *link);
bool bpfkeys_link_is_atomic(const struct bpfkeys_link *link);
/* detach and free */
int bpfkeys_link_destroy(struct bpfkeys_link *link);

/*
 * Pins, for another process to flip (bpfkeyctl, a daemon): after load and
 * attach, bpfkeys_pin() puts the object, the key states, maps, programs and
 * links in DIR (on bpffs; created if needed); from then on every flip of obj
 * moves the pins along. bpfkeys_close() leaves them: the programs stay
 * attached. bpfkeys_open_pinned(DIR) gives an object that flips them (its
 * programs have fds, bpfkeys_program_fd(), but no struct bpf_program; it
 * makes no new attachments). One process holds DIR at a time (flock), from
 * bpfkeys_pin()/bpfkeys_open_pinned() to bpfkeys_close(); another gets
 * EWOULDBLOCK. Removing DIR (rm -r) detaches and unloads everything.
 */
int bpfkeys_pin(struct bpfkeys_object *obj, const char *dir);
struct bpfkeys_object *bpfkeys_open_pinned(const char *dir, const struct bpfkeys_open_opts *opts);

/* the message of the last error of this object ("" if none) */
const char *bpfkeys_errmsg(const struct bpfkeys_object *obj);
/* the verifier's log of the last failed load (keep_verifier_log), or NULL */
const char *bpfkeys_verifier_log(const struct bpfkeys_object *obj);

#ifdef __cplusplus
}
#endif

#endif /* BPF_STATIC_KEYS_STOCK_H */
