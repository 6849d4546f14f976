/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* libbpfkeys: the object model shared by open/load (object.c), flips (flip.c)
 * and attachments (attach.c). */
#ifndef LIBBPFKEYS_INTERNAL_H
#define LIBBPFKEYS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

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

/* 0, or the error of a program that a flip cannot replace (struct_ops) */
int lbk_flip_refusal(struct bpfkeys_object *obj, size_t program);

/* attach_tc.c */
int lbk_tc_replace(struct bpfkeys_link *link, int from, int to);
void lbk_tc_detach(struct bpfkeys_link *link);

/* pin.c: after a flip of a pinned object, the pins of the replaced programs
 * and links and the key states follow */
int lbk_pin_update(struct bpfkeys_object *obj, const bool *replaced);
int lbk_pin_link(struct bpfkeys_object *obj, struct bpfkeys_link *link);

#endif /* LIBBPFKEYS_INTERNAL_H */
