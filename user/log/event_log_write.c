// SPDX-License-Identifier: GPL-2.0
/*
 * Writing the event log: the ring-buffer callback only copies a record into
 * a buffer; the event loop writes the buffer out between polls.  Memory is
 * the buffer, whatever the length of the build.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>
#include "log/event_log.h"
#include "util/json_write.h"
#include "util/write_all.h"

/* Four largest records fit; a build writes it out a few times a second. */
#define WRITE_BUF_SIZE (1u << 20)

struct event_log_writer {
	int fd;
	unsigned char *buf;
	size_t used;
	__u64 events;
	int err; /* first write error: sticky */
};

static size_t frame_size(size_t len)
{
	return sizeof(struct bbl_frame) + ((len + 7) & ~(size_t)7);
}

int event_log_writer__flush(struct event_log_writer *w)
{
	if (w->err)
		return w->err;
	w->err = write_all(w->fd, w->buf, w->used);
	w->used = 0;
	return w->err;
}

/* One frame into the buffer, written out first when it would not fit. */
static int put_frame(struct event_log_writer *w, __u32 type, const void *payload, size_t len)
{
	struct bbl_frame frame = { .type = type, .len = len };
	size_t need = frame_size(len);

	if (w->err)
		return w->err;
	if (len > BBL_FRAME_MAX)
		return -EMSGSIZE;
	if (w->used + need > WRITE_BUF_SIZE && event_log_writer__flush(w))
		return w->err;
	memcpy(w->buf + w->used, &frame, sizeof(frame));
	memcpy(w->buf + w->used + sizeof(frame), payload, len);
	memset(w->buf + w->used + sizeof(frame) + len, 0, need - sizeof(frame) - len);
	w->used += need;
	return 0;
}

static const char *sched_name(enum sched_level level)
{
	return level == SCHED_FULL ? "full" : level == SCHED_SUMMARY ? "summary" : "off";
}

static const char *opt_string(const char *s)
{
	return s ? s : "";
}

/* "jobs_settings": {…} with the settings that are set; nothing when none is. */
static int put_jobs_settings(struct json_object *obj, const struct bbl_jobs_settings *js)
{
	struct json_object *o;
	int err;

	if (!js->cargo_build_jobs && !js->goflags && !js->cargo_config_jobs && !js->go_env_goflags)
		return 0;
	o = json_object_new_object();
	if (!o)
		return -ENOMEM;
	err = (js->cargo_build_jobs ? json_put_bytes(o, "cargo_build_jobs", js->cargo_build_jobs) : 0) ?:
	      (js->goflags ? json_put_bytes(o, "goflags", js->goflags) : 0) ?:
	      (js->cargo_config_jobs ? json_put_bytes(o, "cargo_config_jobs", js->cargo_config_jobs) : 0) ?:
	      (js->cargo_config_file ? json_put_bytes(o, "cargo_config_file", js->cargo_config_file) : 0) ?:
	      (js->go_env_goflags ? json_put_bytes(o, "go_env_goflags", js->go_env_goflags) : 0) ?:
	      (js->go_env_file ? json_put_bytes(o, "go_env_file", js->go_env_file) : 0);
	if (err) {
		json_object_put(o);
		return err;
	}
	return json_put(obj, "jobs_settings", o);
}

static int put_info(struct event_log_writer *w, const struct event_log_info *info)
{
	struct json_object *obj = json_object_new_object();
	const char *text;
	int err;

	err = json_put_str(obj, "buildbpf_version", opt_string(info->buildbpf_version)) ?:
	      json_put_str(obj, "kernel_release", opt_string(info->kernel_release)) ?:
	      json_put_bytes(obj, "user", opt_string(info->user)) ?:
	      json_put_int(obj, "online_cpus", info->online_cpus) ?:
	      json_put_int(obj, "possible_cpus", info->possible_cpus) ?:
	      json_put_int(obj, "page_size", info->page_size) ?:
	      json_put_uint(obj, "start_ns", info->start_ns) ?:
	      json_put_int(obj, "realtime_offset_ns", info->realtime_offset_ns) ?:
	      json_put_int(obj, "root_pid", info->root_pid) ?:
	      json_put_int(obj, "args_max", info->args_max) ?:
	      json_put_uint(obj, "buffer_size", info->ringbuf_bytes) ?:
	      json_put_str(obj, "sched", sched_name(info->sched)) ?:
	      json_put_uint(obj, "sched_resolution_ns", info->sched_resolution_ns) ?:
	      json_put_bool(obj, "wait_all", info->wait_all) ?:
	      json_put_str(obj, "deps", info->deps ? "on" : "off");
	if (!err && deps_hook_name(info->deps_hook))
		err = json_put_str(obj, "deps_hook", deps_hook_name(info->deps_hook));
	if (!err && mem_hook_name(info->mem_hook))
		err = json_put_str(obj, "mem_hook", mem_hook_name(info->mem_hook));
	if (!err && info->attached)
		err = json_put_bool(obj, "attached", true);
	if (!err && info->cgroup)
		err = json_put_bytes(obj, "cgroup", info->cgroup);
	if (!err && info->nr_follow) {
		struct json_object *arr = json_object_new_array();

		for (size_t i = 0; arr && !err && i < info->nr_follow; i++)
			err = json_object_array_add(arr, json_object_new_int64(info->follow[i])) ? -ENOMEM : 0;
		if (err)
			json_object_put(arr);
		else
			err = json_put(obj, "follow", arr);
	}
	if (!err && info->online_cpu_list)
		err = json_put_str(obj, "online_cpu_list", info->online_cpu_list);
	if (!err && info->makeflags)
		err = json_put_bytes(obj, "makeflags", info->makeflags);
	err = err ?: put_jobs_settings(obj, &info->jobs_settings);
	if (!err && info->path_env)
		err = json_put_bytes(obj, "path_env", info->path_env);
	if (!err && info->cwd)
		err = json_put_bytes(obj, "cwd", info->cwd);
	if (!err && info->mem_period_ns)
		err = json_put_uint(obj, "mem_period_ns", info->mem_period_ns);
	if (!err && info->host)
		err = json_put_bytes(obj, "host", info->host);
	if (!err && info->realtime_offset_err_ns)
		err = json_put_uint(obj, "realtime_offset_err_ns", info->realtime_offset_err_ns) ?:
		      json_put_uint(obj, "clock_esterror_us", info->clock_esterror_us) ?:
		      json_put_bool(obj, "clock_synced", info->clock_synced);
	if (!err) {
		text = json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN);
		err = text ? put_frame(w, BBL_FRAME_INFO, text, strlen(text)) : -ENOMEM;
	}
	json_object_put(obj);
	return err;
}

static int put_argv(struct event_log_writer *w, char *const *argv, int argc)
{
	size_t len = 0, off = 0;
	char *text;
	int i, err;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	/* An argv too long for one frame is cut, on an argument boundary. */
	text = malloc(len ? len : 1);
	if (!text)
		return -ENOMEM;
	for (i = 0; i < argc; i++) {
		size_t n = strlen(argv[i]) + 1;

		if (off + n > BBL_FRAME_MAX)
			break;
		memcpy(text + off, argv[i], n);
		off += n;
	}
	err = put_frame(w, BBL_FRAME_ARGV, text, off);
	free(text);
	return err;
}

int event_log_writer__open(struct event_log_writer **out, int fd, const struct event_log_info *info)
{
	struct bbl_file_header hdr = { .version = BBL_VERSION, .byte_order = BBL_BYTE_ORDER };
	struct event_log_writer *w;
	int err;

	*out = NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fd = fd;
	w->buf = malloc(WRITE_BUF_SIZE);
	if (!w->buf) {
		err = -ENOMEM;
		goto fail;
	}
	memcpy(hdr.magic, BBL_MAGIC, BBL_MAGIC_LEN);
	memcpy(w->buf, &hdr, sizeof(hdr));
	w->used = sizeof(hdr);
	err = put_info(w, info) ?: put_argv(w, info->cmd_argv, info->cmd_argc) ?: event_log_writer__flush(w);
	if (err)
		goto fail;
	*out = w;
	return 0;
fail:
	event_log_writer__free(w);
	return err;
}

int event_log_writer__add(struct event_log_writer *w, const void *rec, size_t len)
{
	int err = put_frame(w, BBL_FRAME_EVENT, rec, len);

	if (!err)
		w->events++;
	return err;
}

int event_log_writer__finish(struct event_log_writer *w, const struct bbl_trailer *trailer, bool sync)
{
	struct bbl_trailer t = *trailer;
	int err;

	t.events = w->events;
	t.__pad = 0;
	err = put_frame(w, BBL_FRAME_TRAILER, &t, sizeof(t)) ?: event_log_writer__flush(w);
	if (!err && sync && fsync(w->fd))
		err = w->err = -errno;
	return err;
}

__u64 event_log_writer__events(const struct event_log_writer *w)
{
	return w->events;
}

void event_log_writer__free(struct event_log_writer *w)
{
	if (!w)
		return;
	free(w->buf);
	free(w);
}
