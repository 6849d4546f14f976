/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * libbpfkeys: static keys flipped at run time on stock kernels, by atomic
 * program replacement, on a stock libbpf (1.1 or later).
 *
 * An object linked by bpfld (raw: it still has .static_keys), or the output
 * of `bpfkeys resolve` (the one the patched kernel's libbpf loads), is opened, every
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
 * The library keeps libbpf's contract for a program that links it (a daemon):
 *  - errors are a negative errno (or NULL with errno set), -ENOMEM when memory
 *    runs out (an open or a flip that runs out leaks nothing and changes
 *    nothing); the library never exits;
 *  - messages ("libbpfkeys: OBJECT: error: ...") go to the print callback of
 *    the object's open options (stderr if none) and the last error stays
 *    available from bpfkeys_errmsg();
 *  - no process-global state: libbpf's print function is never changed
 *    (libbpf's own messages go where the caller's libbpf_set_print() says);
 *  - options structs carry their size (LIBBPFKEYS_OPTS), as libbpf's do.
 * One object is not safe for concurrent calls from several threads (objects
 * are independent: one per thread is fine); its programs of course run
 * concurrently.
 *
 * Names: the library is libbpfkeys (libbpfkeys.so.0, libbpfkeys.a, this
 * header <bpfkeys/libbpfkeys.h>); objects and their calls are bpfkeys_*,
 * the library's own calls libbpfkeys_*, as libbpf has bpf_object__* and
 * libbpf_*.
 */
#ifndef BPFKEYS_LIBBPFKEYS_H
#define BPFKEYS_LIBBPFKEYS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <bpf/libbpf.h>

#include <bpfkeys/libbpfkeys_version.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the library the program runs with (LIBBPFKEYS_*_VERSION
 * are the one it was built against), as "MAJOR.MINOR.PATCH". */
unsigned int libbpfkeys_major_version(void);
unsigned int libbpfkeys_minor_version(void);
const char *libbpfkeys_version_string(void);

/*
 * Options structs start with their size, so that a program built against an
 * older header keeps working with a newer library (and a newer one against an
 * older library fails with -EINVAL if it sets a field the library does not
 * know):
 *	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .keep_verifier_log = true);
 *	obj = bpfkeys_open_file(path, &opts);
 */
#define LIBBPFKEYS_OPTS(TYPE, NAME, ...)                                 \
	struct TYPE NAME = ({                                            \
		memset(&NAME, 0, sizeof(struct TYPE));                   \
		(struct TYPE){ .sz = sizeof(struct TYPE), __VA_ARGS__ }; \
	})

/* Levels of the print callback, as libbpf's */
enum libbpfkeys_print_level {
	LIBBPFKEYS_WARN, /* errors, warnings and their notes */
	LIBBPFKEYS_INFO, /* what a load did */
	LIBBPFKEYS_DEBUG, /* what each flip did */
};

/* One message, a line ending in '\n' (libbpf_print_fn_t plus the caller's
 * context); the return value is ignored. */
typedef int (*libbpfkeys_print_fn_t)(enum libbpfkeys_print_level level, const char *format,
				     va_list args, void *ctx);

struct bpfkeys_object;
struct bpfkeys_link;

struct bpfkeys_open_opts {
	/* sizeof(struct bpfkeys_open_opts): LIBBPFKEYS_OPTS sets it */
	size_t sz;
	/* libbpf's object name, the prefix of the .bss/.data/.rodata map names;
	 * default: the file name without directory and ".o" */
	const char *object_name;
	/* keep the verifier's log of a program that fails to load
	 * (bpfkeys_verifier_log); without it only the program is named */
	bool keep_verifier_log;
	/* where the object's messages go, from the open on (an open that fails
	 * says why here); NULL: LIBBPFKEYS_WARN messages to stderr */
	libbpfkeys_print_fn_t print;
	void *print_ctx; /* print's last argument */
	/* after bpfkeys_load() and after each flip, prepare the flip of each key
	 * on its own (bpfkeys_prepare() for {key, !state}), and keep the versions
	 * a flip replaces as the prepared flip back: a flip of one key is then
	 * only link and prog-array updates. Costs: the load, and each flip, also
	 * verify what the other keys' flips need; see bpfkeys_prepare() */
	bool prepare_flips;
	size_t : 0;
};

/* Open an object: the output of `bpfkeys resolve` (its sites from
 * .bpfkeys), a raw linked one (bpfld output, with .static_keys), or one
 * without static keys (loaded as it is). Nothing is loaded yet: key states, autoload and the settings below can still be set.
 * opts may be NULL.
 * NULL with errno set on failure: ENOENT, EACCES, EINVAL (not such an object:
 * the print callback says why), EOPNOTSUPP (flips keys from BPF), ENOMEM. */
struct bpfkeys_object *bpfkeys_open_file(const char *path, const struct bpfkeys_open_opts *opts);
struct bpfkeys_object *bpfkeys_open_mem(const void *buf, size_t size, const char *name,
					const struct bpfkeys_open_opts *opts);
/* Before load: leave a program out (it is never loaded, in no variant). */
int bpfkeys_set_autoload(struct bpfkeys_object *obj, const char *program, bool autoload);
/*
 * Before load: what a libbpf user sets on a bpf_object before
 * bpf_object__load(), kept for every load of the object. The initial load
 * applies the map settings; each flip's variant loads against the maps
 * already there (so a value set here and a size set here are what every
 * variant sees) and gets the same attach targets. After load each returns
 * -EBUSY; an unknown map, variable or program is -ENOENT; every error names
 * it (bpfkeys_errmsg() and the print callback). An object opened from pins
 * keeps its maps (values, sizes) at each flip, not an attach target.
 *
 * map: the name in the object: ".rodata", ".data", ".bss", ".rodata.NAME",
 * ".data.NAME" for global data (or libbpf's full name, "OBJECT.rodata"), a
 * map's own name otherwise.
 */
/* the whole value of a global-data map; size must be the map's value size
 * (-EINVAL naming both sizes otherwise) */
int bpfkeys_set_initial_value(struct bpfkeys_object *obj, const char *map, const void *data,
			      size_t size);
/* one global variable by name (the object's BTF: its DATASEC); size must be
 * the variable's size */
int bpfkeys_set_global(struct bpfkeys_object *obj, const char *variable, const void *value,
		       size_t size);
int bpfkeys_set_max_entries(struct bpfkeys_object *obj, const char *map, __u32 max_entries);
/* load against an existing map (fd: the caller's, duplicated): its type, key
 * and value size must be the object's map's */
int bpfkeys_reuse_map_fd(struct bpfkeys_object *obj, const char *map, int fd);
/* pin the map at path on load, or reuse the map pinned there (libbpf's
 * bpf_map__set_pin_path); NULL: no pin */
int bpfkeys_set_map_pin_path(struct bpfkeys_object *obj, const char *map, const char *path);
/* a tracing or extension program's target: a function of the BPF program
 * attach_prog_fd (duplicated; resolved now), or of the kernel if
 * attach_prog_fd is 0 (resolved at load) (libbpf's
 * bpf_program__set_attach_target); every variant gets it */
int bpfkeys_set_attach_target(struct bpfkeys_object *obj, const char *program, int attach_prog_fd,
			      const char *attach_func_name);
/* The global-data map's value the object loads with (set or from the
 * object), *size its size; NULL with errno ENOENT (no such map) or EINVAL
 * (not global data). Read-only: set it with bpfkeys_set_initial_value();
 * the bytes change with a later setting, the pointer stays valid until
 * bpfkeys_close(). */
const void *bpfkeys_initial_value(struct bpfkeys_object *obj, const char *map, size_t *size);
/* The same for one global variable (its bytes in its map's value) */
const void *bpfkeys_global(struct bpfkeys_object *obj, const char *variable, size_t *size);
/* the map's max_entries: as set (before load) or the loaded map's; 0 with
 * errno set if there is no such map */
__u32 bpfkeys_max_entries(struct bpfkeys_object *obj, const char *map);
/* Lower for the current key states and load every program and map. */
int bpfkeys_load(struct bpfkeys_object *obj);
/* Detaches every link of the library, unloads, frees. NULL is a no-op. */
void bpfkeys_close(struct bpfkeys_object *obj);

/* Keys: static keys of the object, sorted by name. */
size_t bpfkeys_key_count(const struct bpfkeys_object *obj);
const char *bpfkeys_key_name(const struct bpfkeys_object *obj, size_t index);
/* 1 if on, 0 if off, -ENOENT if the object has no static key of that name */
int bpfkeys_key_state(const struct bpfkeys_object *obj, const char *key);
/* 1 if a flip of key replaces the program (it has a static branch on the key,
 * in it or in a subprogram it calls), 0 if not, -ENOENT if the object has no
 * such key or program */
int bpfkeys_program_uses_key(const struct bpfkeys_object *obj, const char *program,
			     const char *key);

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

/*
 * Prepare a flip: lower and load (verify) now the programs that a flip with
 * these settings would replace, so that bpfkeys_flip() with them is only
 * link updates (and prog-array updates). Returns the number of programs that
 * flip replaces, or a negative errno (the variant does not load: nothing is
 * kept, nothing else changes). After load only.
 *
 * A prepared version is used by any later flip whose new states agree with
 * it on every key its program reaches; a flip of another key in between
 * invalidates the versions of exactly the programs that reach that key (they
 * are lowered again at the flip). Each call replaces what the previous call
 * prepared (count 0: drops it); a flip uses prepared versions up, and drops
 * those that became the same as what runs; bpfkeys_close() drops the rest.
 *
 * Cost, until used or dropped: each prepared program is loaded in the kernel
 * (one more program, of the size of its current version), and each variant
 * loaded for it keeps libbpf's object: the lowered image in memory (about the
 * object's size), one fd per program it loaded and one per map of the object
 * (libbpf's dups of the shared maps). prepare_flips keeps one such variant per
 * key (and the previous version of what the last flip replaced).
 */
int bpfkeys_prepare(struct bpfkeys_object *obj, const struct bpfkeys_setting *settings,
		    size_t count);

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
 * A legacy tc filter (cls_bpf on the clsact qdisc, made if missing), for
 * kernels without tcx (before 6.6): libbpf's bpf_tc_attach(). A flip
 * replaces the filter in place (BPF_TC_F_REPLACE, same handle and priority),
 * atomically as a link update. A filter is not a link: bpfkeys_link_fd()
 * is -1, it cannot be pinned (bpfkeys_pin refuses it, so another process
 * cannot flip it), and bpfkeys_close() or bpfkeys_link_destroy() removes it
 * (the qdisc stays).
 */
struct bpfkeys_link *bpfkeys_attach_tc(struct bpfkeys_object *obj, const char *program, int ifindex,
				       bool egress);
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
/* The object's links (its own and, opened from pins, the pinned ones), in
 * attach order: bpfkeys_link_next(obj, NULL) is the first, NULL after the
 * last. */
struct bpfkeys_link *bpfkeys_link_next(const struct bpfkeys_object *obj,
				       const struct bpfkeys_link *prev);
/* the program the link runs (by name: its version changes with flips) */
const char *bpfkeys_link_program(const struct bpfkeys_link *link);
/* what kind of attachment: "xdp", "cgroup", "tcx", "netns", "tc" (legacy
 * filter), or for a link attached by section name the kernel's link type in
 * libbpf's words ("raw_tracepoint", "tracing", "perf_event", ...) */
const char *bpfkeys_link_type(const struct bpfkeys_link *link);
/* where it is attached: "ifindex 3 (veth0)", "cgroup id 42", "netns inode
 * 4026531840", "ifindex 3 (veth0) ingress, handle 1, priority 1", or for a
 * link attached by section name "section tp/syscalls/sys_enter_getppid";
 * valid until the next call for the same link */
const char *bpfkeys_link_target(struct bpfkeys_link *link);
/* the ELF section of a program ("xdp", "raw_tp/sys_enter", ...): what
 * libbpf's auto-attach (bpfkeys_attach) reads; NULL with errno ENOENT if
 * there is no such program */
const char *bpfkeys_program_section(const struct bpfkeys_object *obj, const char *program);

/*
 * Pins, for another process to flip (bpfkeyctl, a daemon): after load and
 * attach, bpfkeys_pin() puts the object, the key states, maps, programs and
 * links in DIR (on bpffs; created if needed); from then on every flip of obj
 * moves the pins along. bpfkeys_close() leaves them: the programs stay
 * attached. bpfkeys_open_pinned(DIR) gives an object that flips them (its
 * programs have fds, bpfkeys_program_fd(), but no struct bpf_program; it
 * makes no new attachments). One process holds DIR at a time (flock), from
 * bpfkeys_pin()/bpfkeys_open_pinned() to bpfkeys_close(); another gets
 * EWOULDBLOCK, and a holder whose DIR was removed and pinned again gets
 * ESTALE from its next flip. Removing DIR (rm -r) detaches and unloads
 * everything. A pinned flip is a transaction (DIR/journal, docs/abi.md
 * section 7.1): bpfkeys_open_pinned() completes or rolls back a flip whose
 * process was killed, and refuses pins that do not match the object.
 * bpfkeys_pin() refuses key and program names longer than 247 characters
 * (ENAMETOOLONG) and, if it fails, removes what it pinned.
 */
int bpfkeys_pin(struct bpfkeys_object *obj, const char *dir);
struct bpfkeys_object *bpfkeys_open_pinned(const char *dir, const struct bpfkeys_open_opts *opts);

/*
 * Whether the running kernel has the static keys series (it creates a
 * static key: BPF_MAP_TYPE_INSN_ARRAY with BPF_F_STATIC_KEY), where a flip is
 * one BPF_STATIC_KEY_UPDATE; false on a stock kernel (or without the
 * privilege to create maps). The skeleton of `bpfkeys gen skeleton` records
 * it at load.
 */
bool bpfkeys_kernel_has_static_keys(void);

/* the message of the last error of this object ("" if none) */
const char *bpfkeys_errmsg(const struct bpfkeys_object *obj);
/* the verifier's log of the last failed load (keep_verifier_log), or NULL */
const char *bpfkeys_verifier_log(const struct bpfkeys_object *obj);

#ifdef __cplusplus
}
#endif

#endif /* BPFKEYS_LIBBPFKEYS_H */
