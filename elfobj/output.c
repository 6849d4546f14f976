// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Writing -o: the output is laid out in a seekable file nothing else sees
 * and appears at its name only when complete, so a failed run leaves what
 * was there. Like ld: a symlink is written through (the file it names is
 * replaced), a device or FIFO (-o /dev/null, -o /dev/stdout into a pipe) is
 * streamed into and never replaced, and a regular file is replaced by an
 * atomic rename of a temporary next to it. The temporary's name does not
 * grow with the output's, so any name the directory takes works. "-" is
 * standard output, streamed into like a FIFO.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfobj.h"

#define TEMP_NAME ".elfobj-XXXXXX"

int elfobj_output_open(struct elfobj_output *out, const char *path)
{
	const char *file = path, *slash;
	struct stat st;
	size_t dir_len;
	mode_t mask;

	memset(out, 0, sizeof(*out));
	out->path = path;
	out->fd = -1;
	if (strcmp(path, "-") == 0) {
		out->path = "<stdout>";
		out->stream = out->to_stdout = true;
	} else if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		out->target_path = realpath(path, NULL);
		if (out->target_path)
			file = out->target_path;
		else /* dangling (created through the link), or a pipe behind /proc/self/fd */
			out->stream = true;
	}
	if (!out->stream && stat(file, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			return elfobj_error(path, NULL,
					    "cannot write the output: it is a directory");
		out->stream = true;
	}
	if (out->stream) {
		/* libelf needs a seekable file: lay out in memory first */
		out->fd = memfd_create("elfobj-output", MFD_CLOEXEC);
		if (out->fd < 0)
			return elfobj_error(path, NULL, "cannot create an in-memory output: %s",
					    strerror(errno));
		return 0;
	}
	slash = strrchr(file, '/');
	dir_len = slash ? (size_t)(slash - file + 1) : 0;
	out->temp_path = malloc(dir_len + sizeof(TEMP_NAME));
	if (!out->temp_path)
		return elfobj_error(path, NULL, "out of memory");
	memcpy(out->temp_path, file, dir_len);
	strcpy(out->temp_path + dir_len, TEMP_NAME);
	out->fd = mkostemp(out->temp_path, O_CLOEXEC);
	if (out->fd < 0) {
		elfobj_error(path, NULL, "cannot create a temporary file next to the output: %s",
			     strerror(errno));
		free(out->temp_path);
		out->temp_path = NULL;
		return -1;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(out->fd, 0666 & ~mask)) {
		elfobj_error(path, NULL, "cannot set permissions: %s", strerror(errno));
		elfobj_output_abort(out);
		return -1;
	}
	return 0;
}

/* Copies the laid-out bytes into a device, FIFO or dangling link at `path`. */
static int stream_into(struct elfobj_output *out)
{
	char buf[65536];
	ssize_t n;
	int to = out->to_stdout ? dup(STDOUT_FILENO)
				: open(out->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);

	if (to < 0)
		return elfobj_error(out->path, NULL, "cannot open for writing: %s",
				    strerror(errno));
	if (lseek(out->fd, 0, SEEK_SET) < 0)
		n = -1;
	else
		while ((n = read(out->fd, buf, sizeof(buf))) > 0) {
			for (ssize_t done = 0, w; done < n; done += w) {
				w = write(to, buf + done, (size_t)(n - done));
				if (w < 0 && errno == EINTR)
					w = 0;
				else if (w <= 0) {
					n = -1;
					break;
				}
			}
			if (n < 0)
				break;
		}
	if (close(to) || n < 0)
		return elfobj_error(out->path, NULL, "cannot write: %s", strerror(errno));
	return 0;
}

/*
 * Over an existing file, exchange the two names and delete the old file:
 * ext4 (auto_da_alloc) flushes data on a rename that replaces a file, which
 * costs more than a whole link of a hundred small objects. Either way the
 * name always holds a complete file.
 */
static int replace_file(const char *temp_path, const char *path)
{
#ifdef RENAME_EXCHANGE
	if (renameat2(AT_FDCWD, temp_path, AT_FDCWD, path, RENAME_EXCHANGE) == 0) {
		unlink(temp_path); /* now the old file */
		return 0;
	}
	if (errno != ENOENT && errno != EINVAL && errno != ENOSYS)
		return -1;
#endif
	return rename(temp_path, path);
}

int elfobj_output_commit(struct elfobj_output *out)
{
	int err = 0;

	if (out->stream) {
		err = stream_into(out);
	} else if (close(out->fd)) {
		out->fd = -1;
		err = elfobj_error(out->path, NULL, "cannot write: %s", strerror(errno));
	} else {
		out->fd = -1;
		if (replace_file(out->temp_path, out->target_path ? out->target_path : out->path))
			err = elfobj_error(out->path, NULL,
					   "cannot rename the temporary output into place: %s",
					   strerror(errno));
		else {
			free(out->temp_path);
			out->temp_path = NULL;
		}
	}
	elfobj_output_abort(out);
	return err;
}

void elfobj_output_abort(struct elfobj_output *out)
{
	if (out->fd >= 0)
		close(out->fd);
	out->fd = -1;
	if (out->temp_path)
		unlink(out->temp_path);
	free(out->temp_path);
	free(out->target_path);
	out->temp_path = out->target_path = NULL;
}
