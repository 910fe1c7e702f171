// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the event log.  The file may be anything: cut short, corrupt or
 * hostile.  Every length is checked against BBL_FRAME_MAX before it is
 * read, so memory is one frame buffer whatever the file says, and every
 * field of INFO is range-checked before anyone uses it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "util/cpu_list.h"
#include "util/error_text.h"
#include "log/event_log.h"

/* The file is read ahead in blocks this large, a whole frame at least. */
#define READ_BUF_BYTES ((size_t)BBL_FRAME_MAX + ((size_t)1 << 20))

struct event_log_reader {
	FILE *f;
	/*
	 * The file read ahead: [pos, end) of buf not taken yet.  A frame is
	 * handed out where it lies in buf, not copied.  buf's index and the
	 * file's offset stay equal modulo 8 (the bytes left are moved to the
	 * front only from a frame's start, a multiple of 8 into the file), so
	 * a record's u64 fields are as aligned as in the file.
	 */
	unsigned char *buf; /* READ_BUF_BYTES */
	size_t pos, end;
	const unsigned char *frame; /* the last frame's payload, in buf */
	__u64 offset;		    /* end of the last complete frame */
	struct event_log_info info;
	struct bbl_trailer trailer;
	bool have_trailer;
	bool done; /* trailer seen, or an error: nothing more to read */
};

/* Makes len bytes (at most READ_BUF_BYTES) wait at buf + pos: 0; -ENODATA at end of file; -EIO. */
static int fill(struct event_log_reader *r, size_t len)
{
	if (r->end - r->pos >= len)
		return 0;
	memmove(r->buf, r->buf + r->pos, r->end - r->pos);
	r->end -= r->pos;
	r->pos = 0;
	/* Unlocked: a reader is one thread's (model/replay.h may run two, each its own). */
	r->end += fread_unlocked(r->buf + r->end, 1, READ_BUF_BYTES - r->end, r->f);
	if (r->end >= len)
		return 0;
	return ferror(r->f) ? -EIO : -ENODATA;
}

static bool all_zero(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

/*
 * One frame, r->frame its payload.  A frame of zeros is where a crash left
 * the file's tail unwritten: the log ends there, cut short.
 */
static int read_frame(struct event_log_reader *r, struct bbl_frame *fr, char *err, size_t size)
{
	size_t padded;
	int e;

	e = fill(r, sizeof(*fr));
	if (!e)
		memcpy(fr, r->buf + r->pos, sizeof(*fr));
	if (e == -ENODATA)
		return error_text(e, err, size, "the log ends at byte %llu, cut short (no trailer)",
			    (unsigned long long)r->offset);
	if (e)
		return error_text(e, err, size, "read error at byte %llu", (unsigned long long)r->offset);
	if (fr->type == 0 && fr->len == 0)
		return error_text(-ENODATA, err, size, "the log ends at byte %llu, cut short (zeros follow)",
			    (unsigned long long)r->offset);
	if (fr->type < BBL_FRAME_INFO || fr->type > BBL_FRAME_TRAILER)
		return error_text(-EBADMSG, err, size, "corrupt: unknown frame type %u at byte %llu", fr->type,
			    (unsigned long long)r->offset);
	if (fr->len > BBL_FRAME_MAX)
		return error_text(-EBADMSG, err, size, "corrupt: a %u-byte frame at byte %llu (at most %u)", fr->len,
			    (unsigned long long)r->offset, BBL_FRAME_MAX);
	padded = (fr->len + 7) & ~7u;
	e = fill(r, sizeof(*fr) + padded);
	if (e == -ENODATA)
		return error_text(e, err, size, "the log ends inside the frame at byte %llu, cut short",
			    (unsigned long long)r->offset);
	if (e)
		return error_text(e, err, size, "read error at byte %llu", (unsigned long long)r->offset);
	r->frame = r->buf + r->pos + sizeof(*fr);
	r->pos += sizeof(*fr) + padded;
	r->offset += sizeof(*fr) + padded;
	return 0;
}

/* ---- INFO ---- */

static bool get_int(struct json_object *obj, const char *key, long long min, long long max, long long *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, json_type_int))
		return false;
	errno = 0;
	*out = json_object_get_int64(v);
	return !errno && *out >= min && *out <= max;
}

static bool get_u64(struct json_object *obj, const char *key, __u64 *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, json_type_int))
		return false;
	errno = 0;
	*out = json_object_get_uint64(v);
	return !errno;
}

static bool get_string(struct json_object *obj, const char *key, char **out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, json_type_string))
		return false;
	*out = strndup(json_object_get_string(v), json_object_get_string_len(v));
	return *out != NULL;
}

/* INFO's "follow": the --follow daemons, an array of pids. */
static int parse_follow(struct event_log_info *info, struct json_object *arr, char *err, size_t size)
{
	size_t i, n;
	pid_t *pids;

	if (!json_object_is_type(arr, json_type_array) || (n = json_object_array_length(arr)) > 4096)
		return error_text(-EBADMSG, err, size, "corrupt: the recording's 'follow' is not a list of pids");
	pids = calloc(n ? n : 1, sizeof(*pids));
	if (!pids)
		return error_text(-ENOMEM, err, size, "out of memory");
	for (i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(arr, i);
		int64_t pid = json_object_get_int64(v);

		if (!json_object_is_type(v, json_type_int) || pid < 1 || pid > INT32_MAX) {
			free(pids);
			return error_text(-EBADMSG, err, size, "corrupt: the recording's 'follow' is not a list of pids");
		}
		pids[i] = pid;
	}
	info->follow = pids;
	info->nr_follow = n;
	return 0;
}

/* The fields every recording has: the first one missing or out of range, or NULL. */
static const char *required_field_missing(struct event_log_info *info, struct json_object *obj)
{
	const char *missing = NULL;
	struct json_object *v;
	long long n;

	if (!get_string(obj, "buildbpf_version", &info->buildbpf_version))
		missing = "buildbpf_version";
	else if (!get_string(obj, "kernel_release", &info->kernel_release))
		missing = "kernel_release";
	else if (!get_string(obj, "user", &info->user))
		missing = "user";
	else if (!get_int(obj, "online_cpus", 1, BBL_MAX_CPUS, &n) || !(info->online_cpus = n))
		missing = "online_cpus";
	else if (!get_int(obj, "possible_cpus", 1, BBL_MAX_CPUS, &n) || !(info->possible_cpus = n))
		missing = "possible_cpus";
	else if (!get_int(obj, "page_size", 1, 1 << 30, &n) || !(info->page_size = n))
		missing = "page_size";
	else if (!get_u64(obj, "start_ns", &info->start_ns))
		missing = "start_ns";
	else if (!get_int(obj, "realtime_offset_ns", INT64_MIN, INT64_MAX, &n) || ((info->realtime_offset_ns = n), 0))
		missing = "realtime_offset_ns";
	else if (!get_int(obj, "root_pid", 0, UINT32_MAX, &n) ||
		 (!(info->root_pid = n) && !json_object_object_get_ex(obj, "cgroup", NULL)))
		missing = "root_pid";
	else if (!get_int(obj, "args_max", 0, UINT32_MAX, &n) || ((info->args_max = n), 0))
		missing = "args_max";
	else if (!get_u64(obj, "buffer_size", &info->ringbuf_bytes))
		missing = "buffer_size";
	else if (!get_u64(obj, "sched_resolution_ns", &info->sched_resolution_ns) ||
		 !info->sched_resolution_ns || info->sched_resolution_ns > 10000000000ull)
		missing = "sched_resolution_ns";
	else if (!json_object_object_get_ex(obj, "wait_all", &v) || !json_object_is_type(v, json_type_boolean))
		missing = "wait_all";
	else if (!json_object_object_get_ex(obj, "sched", &v) || !json_object_is_type(v, json_type_string))
		missing = "sched";
	return missing;
}

/* The optional --deps level and the hooks the recording used: 0, or -EBADMSG with err set. */
static int parse_hooks(struct event_log_info *info, struct json_object *obj, char *err, size_t size)
{
	struct json_object *dv;

	/* Optional too: recordings made before --deps existed have none. */
	if (json_object_object_get_ex(obj, "deps", &dv)) {
		const char *deps = json_object_is_type(dv, json_type_string) ? json_object_get_string(dv) : "";

		if (strcmp(deps, "on") && strcmp(deps, "off")) {
			return error_text(-EBADMSG, err, size, "corrupt: unknown --deps level in the recording");
		}
		info->deps = !strcmp(deps, "on");
	}
	/* Optional: recordings made before the hook was kept have none.  A
	 * name this version does not know is a later hook: UNKNOWN. */
	if (json_object_object_get_ex(obj, "deps_hook", &dv)) {
		if (!json_object_is_type(dv, json_type_string)) {
			return error_text(-EBADMSG, err, size, "corrupt: the recording's 'deps_hook' is not a string");
		}
		info->deps_hook = deps_hook_parse(json_object_get_string(dv));
	}
	if (json_object_object_get_ex(obj, "mem_hook", &dv)) {
		if (!json_object_is_type(dv, json_type_string)) {
			return error_text(-EBADMSG, err, size, "corrupt: the recording's 'mem_hook' is not a string");
		}
		info->mem_hook = mem_hook_parse(json_object_get_string(dv));
	}
	return 0;
}

/* The optional "jobs_settings" object: 0, or -EBADMSG with err set. */
static int parse_jobs_settings(struct bbl_jobs_settings *js, struct json_object *obj, char *err, size_t size)
{
	static const char *const keys[] = { "cargo_build_jobs", "goflags",	  "cargo_config_jobs",
					    "cargo_config_file", "go_env_goflags", "go_env_file" };
	char **fields[] = { &js->cargo_build_jobs,  &js->goflags,	   &js->cargo_config_jobs,
			    &js->cargo_config_file, &js->go_env_goflags, &js->go_env_file };
	struct json_object *o;
	size_t i;

	if (!json_object_object_get_ex(obj, "jobs_settings", &o))
		return 0;
	if (!json_object_is_type(o, json_type_object))
		return error_text(-EBADMSG, err, size, "corrupt: the recording's 'jobs_settings' is not an object");
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (json_object_object_get_ex(o, keys[i], NULL) && !get_string(o, keys[i], fields[i]))
			return error_text(-EBADMSG, err, size, "corrupt: the recording's '%s' is not a string", keys[i]);
	return 0;
}

static int parse_info(struct event_log_reader *r, size_t len, char *err, size_t size)
{
	struct event_log_info *info = &r->info;
	struct json_tokener *tok = json_tokener_new_ex(4);
	struct json_object *obj = NULL, *att;
	const char *sched, *missing = NULL;
	int e = 0;

	if (!tok)
		return error_text(-ENOMEM, err, size, "out of memory");
	obj = json_tokener_parse_ex(tok, (const char *)r->frame, len);
	if (!obj || json_tokener_get_error(tok) != json_tokener_success ||
	    json_tokener_get_parse_end(tok) != len || !json_object_is_type(obj, json_type_object)) {
		e = error_text(-EBADMSG, err, size, "corrupt: the recording's description is not a JSON object");
		goto out;
	}
	missing = required_field_missing(info, obj);
	if (missing) {
		e = error_text(-EBADMSG, err, size, "corrupt: the recording's '%s' is missing or out of range", missing);
		goto out;
	}
	/* Optional: absent means unknown, or unset. */
	if ((json_object_object_get_ex(obj, "online_cpu_list", NULL) &&
	     !get_string(obj, "online_cpu_list", &info->online_cpu_list)) ||
	    (json_object_object_get_ex(obj, "makeflags", NULL) && !get_string(obj, "makeflags", &info->makeflags)) ||
	    (json_object_object_get_ex(obj, "path_env", NULL) && !get_string(obj, "path_env", &info->path_env)) ||
	    (json_object_object_get_ex(obj, "cwd", NULL) && !get_string(obj, "cwd", &info->cwd)) ||
	    (json_object_object_get_ex(obj, "cgroup", NULL) && !get_string(obj, "cgroup", &info->cgroup)) ||
	    (json_object_object_get_ex(obj, "host", NULL) && !get_string(obj, "host", &info->host))) {
		e = error_text(-EBADMSG, err, size, "corrupt: the recording's optional fields have the wrong type");
		goto out;
	}
	/* Optional: absent in recordings not sampling memory, or made before it. */
	if (json_object_object_get_ex(obj, "mem_period_ns", NULL) &&
	    (!get_u64(obj, "mem_period_ns", &info->mem_period_ns) || info->mem_period_ns > 10000000000ull)) {
		e = error_text(-EBADMSG, err, size, "corrupt: the recording's 'mem_period_ns' is out of range");
		goto out;
	}
	/* Optional: how well the wall-clock offset is known (convert --add). */
	if (json_object_object_get_ex(obj, "realtime_offset_err_ns", NULL) &&
	    (!get_u64(obj, "realtime_offset_err_ns", &info->realtime_offset_err_ns) ||
	     !get_u64(obj, "clock_esterror_us", &info->clock_esterror_us) ||
	     !json_object_object_get_ex(obj, "clock_synced", &att) || !json_object_is_type(att, json_type_boolean))) {
		e = error_text(-EBADMSG, err, size, "corrupt: the recording's clock accuracy fields are incomplete");
		goto out;
	}
	if (info->realtime_offset_err_ns)
		info->clock_synced = json_object_get_boolean(att);
	info->wait_all = json_object_get_boolean(json_object_object_get(obj, "wait_all"));
	e = parse_hooks(info, obj, err, size) ?: parse_jobs_settings(&info->jobs_settings, obj, err, size);
	if (e)
		goto out;
	if (json_object_object_get_ex(obj, "follow", &att) && (e = parse_follow(info, att, err, size)))
		goto out;
	if (json_object_object_get_ex(obj, "attached", &att)) {
		if (!json_object_is_type(att, json_type_boolean)) {
			e = error_text(-EBADMSG, err, size, "corrupt: the recording's 'attached' is not a boolean");
			goto out;
		}
		info->attached = json_object_get_boolean(att);
	}
	sched = json_object_get_string(json_object_object_get(obj, "sched"));
	if (!strcmp(sched, "off")) {
		info->sched = SCHED_OFF;
	} else if (!strcmp(sched, "summary")) {
		info->sched = SCHED_SUMMARY;
	} else if (!strcmp(sched, "full")) {
		info->sched = SCHED_FULL;
	} else {
		e = error_text(-EBADMSG, err, size, "corrupt: unknown scheduler level in the recording");
		goto out;
	}
out:
	json_object_put(obj);
	json_tokener_free(tok);
	return e;
}

/*
 * The CPU counts and list agree: replay allocates a lane per possible CPU
 * and takes records only from those, so a list naming others, or more
 * online CPUs than possible ones, is a log no recording made.
 */
static int check_cpus(const struct event_log_info *info, char *err, size_t size)
{
	bool *listed;
	size_t cpu, nr_listed = 0, beyond = 0;
	int e = 0;

	if (info->online_cpus > info->possible_cpus)
		return error_text(-EBADMSG, err, size, "corrupt: the recording has %ld CPUs online of %u possible",
				  info->online_cpus, info->possible_cpus);
	if (!info->online_cpu_list)
		return 0;
	listed = calloc(BBL_MAX_CPUS, sizeof(*listed));
	if (!listed)
		return error_text(-ENOMEM, err, size, "out of memory");
	if (cpu_list__parse(info->online_cpu_list, listed, BBL_MAX_CPUS)) {
		e = error_text(-EBADMSG, err, size, "corrupt: the recording's online CPU list is malformed");
		goto out;
	}
	for (cpu = 0; cpu < BBL_MAX_CPUS; cpu++) {
		nr_listed += listed[cpu] && cpu < info->possible_cpus;
		beyond += listed[cpu] && cpu >= info->possible_cpus;
	}
	if (beyond || !nr_listed)
		e = error_text(-EBADMSG, err, size,
			       "corrupt: the recording's online CPU list does not fit its %u possible CPUs",
			       info->possible_cpus);
out:
	free(listed);
	return e;
}

/* ARGV: NUL-terminated arguments, at least one. */
static int parse_argv(struct event_log_reader *r, size_t len, char *err, size_t size)
{
	struct event_log_info *info = &r->info;
	size_t i, argc = 0, start = 0;

	if (!len || r->frame[len - 1] != '\0')
		return error_text(-EBADMSG, err, size, "corrupt: the recorded command line is not NUL-terminated");
	for (i = 0; i < len; i++)
		argc += r->frame[i] == '\0';
	info->cmd_argv = calloc(argc + 1, sizeof(*info->cmd_argv));
	if (!info->cmd_argv)
		return error_text(-ENOMEM, err, size, "out of memory");
	for (i = 0; i < len; i++) {
		if (r->frame[i])
			continue;
		info->cmd_argv[info->cmd_argc] = strdup((const char *)r->frame + start);
		if (!info->cmd_argv[info->cmd_argc])
			return error_text(-ENOMEM, err, size, "out of memory");
		info->cmd_argc++;
		start = i + 1;
	}
	return 0;
}

int event_log_reader__open(struct event_log_reader **out, FILE *f, char *err, size_t size)
{
	struct event_log_reader *r;
	struct bbl_file_header hdr;
	struct bbl_frame fr;
	int e;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return error_text(-ENOMEM, err, size, "out of memory");
	r->f = f;
	r->buf = malloc(READ_BUF_BYTES);
	if (!r->buf) {
		e = error_text(-ENOMEM, err, size, "out of memory");
		goto fail;
	}
	e = fill(r, sizeof(hdr));
	if (!e) {
		memcpy(&hdr, r->buf, sizeof(hdr));
		r->pos = sizeof(hdr);
	}
	if (e || memcmp(hdr.magic, BBL_MAGIC, BBL_MAGIC_LEN)) {
		e = e == -EIO ? error_text(e, err, size, "read error") :
			error_text(-EBADMSG, err, size, "not a buildbpf recording (no BUILDBPF header)");
		goto fail;
	}
	if (hdr.byte_order != BBL_BYTE_ORDER) {
		e = error_text(-EPROTONOSUPPORT, err, size, "recorded on a machine of the other byte order");
		goto fail;
	}
	if (hdr.version != BBL_VERSION) {
		e = error_text(-EPROTONOSUPPORT, err, size, "format version %u; this buildbpf reads version %u", hdr.version,
			 BBL_VERSION);
		goto fail;
	}
	r->offset = sizeof(hdr);
	e = read_frame(r, &fr, err, size);
	if (!e && fr.type != BBL_FRAME_INFO)
		e = error_text(-EBADMSG, err, size, "corrupt: the recording's description is missing");
	if (!e)
		e = parse_info(r, fr.len, err, size);
	if (!e)
		e = check_cpus(&r->info, err, size);
	if (!e)
		e = read_frame(r, &fr, err, size);
	if (!e && fr.type != BBL_FRAME_ARGV)
		e = error_text(-EBADMSG, err, size, "corrupt: the recorded command line is missing");
	if (!e)
		e = parse_argv(r, fr.len, err, size);
	if (e)
		goto fail;
	*out = r;
	return 0;
fail:
	event_log_reader__free(r);
	return e;
}

const struct event_log_info *event_log_reader__info(const struct event_log_reader *r)
{
	return &r->info;
}

int event_log_reader__next(struct event_log_reader *r, const void **rec, size_t *len, char *err, size_t size)
{
	struct bbl_frame fr;
	int e;

	if (r->have_trailer)
		return 0;
	if (r->done)
		return error_text(-EINVAL, err, size, "read past an error");
	e = read_frame(r, &fr, err, size);
	if (!e && fr.type == BBL_FRAME_EVENT) {
		*rec = r->frame;
		*len = fr.len;
		return 1;
	}
	if (!e && fr.type == BBL_FRAME_TRAILER) {
		if (fr.len != sizeof(r->trailer) || !all_zero(&((const struct bbl_trailer *)r->frame)->__pad, 4))
			e = error_text(-EBADMSG, err, size, "corrupt: a malformed trailer at byte %llu",
				 (unsigned long long)r->offset);
		if (!e) {
			memcpy(&r->trailer, r->frame, sizeof(r->trailer));
			r->have_trailer = true;
			return 0;
		}
	}
	if (!e)
		e = error_text(-EBADMSG, err, size, "corrupt: a second description frame before byte %llu",
			 (unsigned long long)r->offset);
	r->done = true;
	return e;
}

const struct bbl_trailer *event_log_reader__trailer(const struct event_log_reader *r)
{
	return r->have_trailer ? &r->trailer : NULL;
}

__u64 event_log_reader__offset(const struct event_log_reader *r)
{
	return r->offset;
}

void event_log_info__free(struct event_log_info *info)
{
	int i;

	free(info->buildbpf_version);
	free(info->kernel_release);
	free(info->user);
	free(info->online_cpu_list);
	free(info->makeflags);
	free(info->jobs_settings.cargo_build_jobs);
	free(info->jobs_settings.goflags);
	free(info->jobs_settings.cargo_config_jobs);
	free(info->jobs_settings.cargo_config_file);
	free(info->jobs_settings.go_env_goflags);
	free(info->jobs_settings.go_env_file);
	free(info->path_env);
	free(info->cwd);
	free(info->cgroup);
	free(info->host);
	free((pid_t *)info->follow);
	for (i = 0; info->cmd_argv && i < info->cmd_argc; i++)
		free(info->cmd_argv[i]);
	free(info->cmd_argv);
	memset(info, 0, sizeof(*info));
}

void event_log_reader__free(struct event_log_reader *r)
{
	if (!r)
		return;
	event_log_info__free(&r->info);
	free(r->buf);
	free(r);
}
