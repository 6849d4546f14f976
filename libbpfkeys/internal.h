/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* libbpfkeys: the object model shared by open/load (object.c), flips (flip.c)
 * and attachments (attach.c). */
#ifndef LIBBPFKEYS_INTERNAL_H
#define LIBBPFKEYS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bpfkeys.h"
#include "bpfkeys/libbpfkeys.h"

#define BPFKEYS_ERRMSG_SIZE 512
/* Per-program verifier log buffer of a variant: enough for the error at the
 * end of the log (the kernel keeps the tail of a log that does not fit). */
#define BPFKEYS_LOG_SIZE (1u << 20)

/* One libbpf object loaded from one lowered image: the initial load or a
 * flip's variant. Programs point at the one their current version lives in;
 * it is closed when no program does any more. */
struct bpfkeys_loaded {
	struct bpf_object *bpf;
	void *image; /* the lowered ELF libbpf opened */
	size_t refs; /* programs whose current version is in bpf */
};

struct bpfkeys_program {
	char *name;
	bool autoload;
	struct bpfkeys_loaded *loaded; /* NULL before load or if not autoloaded */
	int pinned_fd; /* opened from a pin (bpfkeys_open_pinned), or -1 */
};

struct bpfkeys_map {
	char *name; /* bpf_map__name() in a freshly opened image */
	int fd; /* our own dup, reused by every variant */
};

/* tcx uapi values newer than Debian 12's linux/bpf.h (Linux 6.1); Linux 6.6 set them */
#define BPFKEYS_TCX_INGRESS 46 /* enum bpf_attach_type */
#define BPFKEYS_TCX_EGRESS 47
#define BPFKEYS_LINK_TYPE_TCX 11 /* enum bpf_link_type */

enum bpfkeys_link_kind {
	BPFKEYS_LINK_XDP,
	BPFKEYS_LINK_CGROUP,
	BPFKEYS_LINK_TCX,
	BPFKEYS_LINK_NETNS,
	BPFKEYS_LINK_OVERLAP,
	BPFKEYS_LINK_TC, /* a legacy tc filter (attach_tc.c): no link, no fd */
};

/* where a legacy tc filter is: what bpf_tc_attach() chose */
struct bpfkeys_tc_filter {
	int ifindex;
	bool egress;
	unsigned int handle, priority;
};

struct bpfkeys_link {
	struct bpfkeys_object *obj;
	enum bpfkeys_link_kind kind;
	size_t program; /* index in obj->programs */
	struct bpf_link *bpf_link; /* libbpf's link, or NULL for tcx */
	int fd; /* the link fd (tcx and pinned: ours) */
	char *pin_path; /* where it is pinned, or NULL */
	struct bpfkeys_tc_filter tc; /* BPFKEYS_LINK_TC only */
	char target[96]; /* bpfkeys_link_target()'s answer */
	struct bpfkeys_link *next;
};

struct bpfkeys_object {
	char *path; /* for messages */
	libbpfkeys_print_fn_t print; /* NULL: stderr */
	void *print_ctx;
	char *name; /* libbpf object name */
	bool keep_verifier_log;
	struct bk_object bk; /* the raw object, analyzed */
	bool *on; /* [bk.key_count]: current state */
	struct bpfkeys_program *programs;
	size_t program_count;
	struct bpfkeys_map *maps;
	size_t map_count;
	bool loaded;
	struct bpfkeys_link *links; /* in attach order */
	char errmsg[BPFKEYS_ERRMSG_SIZE];
	char *verifier_log;
	char *pin_dir; /* pinned (bpfkeys_pin, bpfkeys_open_pinned): flips update it */
	int lock_fd; /* the pin directory, flock()ed while obj is open, or -1 */
	unsigned int next_link_pin;
	struct lbk_settings *settings; /* settings.c: before-load settings, or NULL */
	struct bpfkeys_prepared *prepared; /* versions loaded ahead of flips */
	bool prepare_flips; /* open option: prepare each key's flip after load and flips */
	/* worked out at the first flip, the same for the object's life: */
	bool *program_keys; /* [program * bk.key_count + key]: program reaches key */
	uint32_t *prog_array_entries; /* [map_count]: max_entries of a PROG_ARRAY, else 0 */
	/* versions a prepared flip replaced, put later (prepare.c): closing
	 * libbpf's object costs more than the flip's link updates */
	struct bpfkeys_loaded **retired;
	size_t retired_count;
};

/* object.c */
/* records the message as the object's last error, prints it, returns -err
 * (err: an errno, either sign) with errno set */
int lbk_error(struct bpfkeys_object *obj, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* one line through the object's print callback */
void lbk_print(const struct bpfkeys_object *obj, enum libbpfkeys_print_level level, const char *fmt,
	       ...) __attribute__((format(printf, 3, 4)));
/*
 * fn(obj, arg), a call into bpfkeys' core, which has no error path for a
 * failed allocation: it bails out (bk_bail_target) to here, and the call
 * returns -ENOMEM (said as the object's error). fn's own -ENOMEM (the
 * reader's, which says it) is returned as it is. The core's messages go to
 * the object's print callback meanwhile (elfobj_reporter). Both are per
 * thread and restored on return.
 */
int lbk_core(struct bpfkeys_object *obj, int (*fn)(struct bpfkeys_object *obj, void *arg),
	     void *arg);
/* a field of opts, if the caller's struct has it (its sz covers it) */
#define LBK_OPT(opts, field, fallback)                                                        \
	((opts) && (opts)->sz >= offsetof(__typeof__(*(opts)), field) + sizeof((opts)->field) \
		 ? (opts)->field                                                              \
		 : (fallback))
/* A new object named path, its print callback set first from opts: every
 * failure of an open is said through it. NULL with errno set on failure
 * (EINVAL: opts of a bad size). */
struct bpfkeys_object *lbk_new_object(const char *path, const struct bpfkeys_open_opts *opts);
/* The same for a call that leaves nothing allocated behind it (a lower):
 * the core's allocations are recorded (bk_transient), and a bail-out frees
 * them. */
int lbk_core_transient(struct bpfkeys_object *obj, int (*fn)(struct bpfkeys_object *obj, void *arg),
		       void *arg);
/* calloc(), or NULL with the object's error "out of memory" (ENOMEM) */
void *lbk_calloc(struct bpfkeys_object *obj, size_t n, size_t size);
char *lbk_strdup(struct bpfkeys_object *obj, const char *s);
ssize_t lbk_program_index(const struct bpfkeys_object *obj, const char *name);
/* lower for the states on[] and open with libbpf: the image and the object */
int lbk_open_variant(struct bpfkeys_object *obj, const bool *on, struct bpfkeys_loaded **out);
/* load a variant opened by lbk_open_variant; on failure names the program */
int lbk_load_variant(struct bpfkeys_object *obj, struct bpfkeys_loaded *variant,
		     const bool *load_program);
void lbk_loaded_put(struct bpfkeys_loaded *loaded);
/* the program has a current version: loaded here or opened from its pin */
bool lbk_program_loaded(const struct bpfkeys_object *obj, size_t program);

/* flip.c */
/* new_on[]: the current states with the settings applied; errors name the key */
int lbk_new_states(struct bpfkeys_object *obj, const struct bpfkeys_setting *settings, size_t count,
		   bool *new_on);
/* the programs (loaded ones) whose code differs between the current states
 * and on[]; returns their number */
int lbk_affected_programs(struct bpfkeys_object *obj, const bool *on, bool *affected);

/*
 * One step of a flip, in the order a flip walks them (flip.c): new
 * attachments of overlap links, then PROG_ARRAY entries that point at a
 * replaced program, then BPF_LINK_UPDATE of every updatable link. Each is
 * undone, in reverse, if a later one fails.
 */
enum lbk_step_kind {
	LBK_STEP_ATTACH, /* overlap link: the new version attached (old detached at commit) */
	LBK_STEP_PROG_ARRAY, /* map_fd[index]: old_fd -> new_fd */
	LBK_STEP_LINK_UPDATE, /* link: old_fd -> new_fd, BPF_F_REPLACE */
};

struct lbk_flip_step {
	enum lbk_step_kind kind;
	size_t program; /* index in obj->programs */
	struct bpfkeys_link *link; /* ATTACH, LINK_UPDATE */
	int map_fd; /* PROG_ARRAY */
	uint32_t index; /* PROG_ARRAY */
	int old_fd, new_fd; /* the program's current and next version */
	struct bpf_link *attached; /* ATTACH: the new attachment */
};

/* prog_array.c */
/* In a lowered image to be loaded against maps that exist already: drop the
 * relocations of .maps (`.values = { &prog }` of PROG_ARRAYs and map-in-map
 * maps), so that libbpf does not write the variant's programs into the live
 * maps at load; a flip moves those entries itself (lbk_plan_prog_arrays). */
int lbk_drop_map_initialisers(struct bpfkeys_object *obj, void *image, size_t size);
/* Append a PROG_ARRAY step for every entry of the object's prog arrays that
 * holds the current version of a replaced program (old_fd[p] >= 0 for those,
 * new_fd[p] their next version). Returns the number of steps added, or a
 * negative errno. */
ssize_t lbk_plan_prog_arrays(struct bpfkeys_object *obj, const int *old_fd, const int *new_fd,
			     struct lbk_flip_step *steps, size_t capacity);

/* prepare.c: program versions loaded ahead of a flip (bpfkeys_prepare,
 * prepare_flips) */
struct bpfkeys_prepared {
	size_t program;
	bool *on; /* [bk.key_count]: the states it was lowered for */
	struct bpfkeys_loaded *loaded; /* holds one reference */
	bool automatic; /* prepare_flips' (not bpfkeys_prepare()'s) */
	struct bpfkeys_prepared *next;
};
/* program_keys, made if need be; NULL without memory */
const bool *lbk_program_keys(struct bpfkeys_object *obj);
/* a prepared version of the program that runs as it would for the states on[] */
struct bpfkeys_prepared *lbk_prepared_find(struct bpfkeys_object *obj, size_t program,
					   const bool *on);
/* unlink the entry; its reference on loaded passes to the caller */
void lbk_prepared_take(struct bpfkeys_object *obj, struct bpfkeys_prepared *entry);
/* keep a version (its reference passes to the pool); ENOMEM: put */
void lbk_prepared_keep(struct bpfkeys_object *obj, size_t program, const bool *on,
		       struct bpfkeys_loaded *loaded, bool automatic);
/* after a flip: drop what is now the same as what runs (and, for
 * prepare_flips, what is more than one key away from it), then prepare each
 * key's flip again if prepare_flips */
void lbk_prepared_after_flip(struct bpfkeys_object *obj);
/* after load: prepare each key's flip if prepare_flips */
void lbk_prepared_after_load(struct bpfkeys_object *obj);
void lbk_prepared_free_all(struct bpfkeys_object *obj);
/* a reference to put later (at the next bpfkeys_prepare(), unprepared flip or
 * close); without memory, now */
void lbk_retire(struct bpfkeys_object *obj, struct bpfkeys_loaded *loaded);
void lbk_put_retired(struct bpfkeys_object *obj);

/* attach.c */
struct bpfkeys_link *lbk_add_link(struct bpfkeys_object *obj, size_t program,
				  enum bpfkeys_link_kind kind, struct bpf_link *bpf_link, int fd);
/* close our reference (a pinned link stays attached; a tc filter, which
 * no fd holds, is detached) and free */
void lbk_link_release(struct bpfkeys_link *link);
/* the program of a loaded object, or NULL with the object's error */
struct bpf_program *lbk_loaded_program(struct bpfkeys_object *obj, const char *name,
				       ssize_t *index);
/* a link made by an attach call: pinned at once if the object is; on
 * failure the attachment is undone (bpf_link or fd closed) */
struct bpfkeys_link *lbk_attached(struct bpfkeys_object *obj, ssize_t program,
				  enum bpfkeys_link_kind kind, struct bpf_link *bpf_link, int fd);
/* what the link runs, from the program of fd from to the program of fd to,
 * failing rather than replacing a program that is not from's: 0 or -errno
 * with errno set (BPF_LINK_UPDATE with BPF_F_REPLACE, or a tc filter
 * replaced in place) */
int lbk_link_replace(struct bpfkeys_link *link, int from, int to);
/* links opened from pins (readdir order) put back in attach order: by the N
 * of their pin names PROG:N */
void lbk_links_in_pin_order(struct bpfkeys_object *obj);
/* the id of the program fd refers to, or 0 */
uint32_t lbk_prog_id(int fd);

/* 0, or the error of a program that a flip cannot replace (struct_ops) */
int lbk_flip_refusal(struct bpfkeys_object *obj, size_t program);

/* attach_tc.c */
int lbk_tc_replace(struct bpfkeys_link *link, int from, int to);
void lbk_tc_detach(struct bpfkeys_link *link);

/* settings.c: the settings on a variant before its load (the maps' at the
 * initial load only; attach targets at every load) */
int lbk_settings_apply(struct bpfkeys_object *obj, struct bpfkeys_loaded *variant);
void lbk_settings_free(struct bpfkeys_object *obj);

/* pin.c: after a flip of a pinned object, the pins of the replaced programs
 * and links and the key states follow */
int lbk_pin_link(struct bpfkeys_object *obj, struct bpfkeys_link *link);
/* DIR/SUB, or DIR/SUB/NAME if name (bk_xcalloc'ed: under lbk_core) */
char *lbk_pin_path(const char *dir, const char *sub, const char *name);
/* the states on[] into DIR/meta (under lbk_core) */
int lbk_pin_write_states(struct bpfkeys_object *obj, const bool *on);

/* pin_check.c: what an opener checks in a pin directory, each error naming the pin */
struct meta_header;
int lbk_pin_check_meta(struct bpfkeys_object *holder, const char *dir, int meta_fd,
		       const struct meta_header *header);
int lbk_pin_check_maps(struct bpfkeys_object *obj, const char *dir);
/* every link runs its progs/ pin; a missing progs/ pin is pinned from its link */
int lbk_pin_check_links(struct bpfkeys_object *obj, const char *dir);

/* journal.c: a flip of a pinned object as a transaction (the steps are in
 * journal.c and docs/abi.md section 7.1) */
struct lbk_journal_args {
	const int *new_fd; /* [program_count]: each affected program's next version */
	const bool *affected; /* [program_count] */
	const bool *new_on; /* [bk.key_count] */
	bool states_written; /* meta may hold new_on */
	int journal_fd; /* DIR/journal's map, open from begin to commit or abort */
};
/* the pin directory is still the one locked (not removed and pinned again) */
int lbk_pin_dir_check(struct bpfkeys_object *obj);
/* before the first link moves: the new programs' :new pins and DIR/journal */
int lbk_journal_begin(struct bpfkeys_object *obj, struct lbk_journal_args *args);
/* a new attach-then-detach link (new_fd) pinned next to the old one's pin */
int lbk_journal_pin_new_link(struct bpfkeys_object *obj, struct bpfkeys_link *link, int new_fd);
/* after meta holds the new states: the pins follow, the journal goes */
int lbk_journal_commit(struct bpfkeys_object *obj, const struct lbk_journal_args *args);
/* after the links were undone: the journal's leftovers go */
void lbk_journal_abort(struct bpfkeys_object *obj, const struct lbk_journal_args *args);
/* by an opener holding the directory: complete or roll back a flip */
int lbk_journal_recover(struct bpfkeys_object *holder, const char *dir);

#endif /* LIBBPFKEYS_INTERNAL_H */
