// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "record/kernel_btf.h"
#include "record/deps_probe.h"
#include "record/kernel_reqs.h"
#include "record/preflight.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static int has_cap(const struct __user_cap_data_struct data[2], int cap)
{
	return !!(data[cap / 32].effective & (1u << (cap % 32)));
}

/* 1 when this process may load BPF programs, 0 when not, -errno when its capabilities cannot be read. */
static int bpf_privileged(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct data[2] = {};

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	return has_cap(data, CAP_SYS_ADMIN) || (has_cap(data, CAP_BPF) && has_cap(data, CAP_PERFMON));
}

static int check_privileges(void)
{
	int priv = bpf_privileged();

	if (priv < 0) {
		fprintf(stderr, "buildbpf: cannot read this process's capabilities: %s\n", strerror(-priv));
		return -1;
	}
	if (priv)
		return 0;
	fprintf(stderr, "buildbpf: loading BPF programs needs root or CAP_BPF+CAP_PERFMON "
			"(hint: sudo buildbpf ...)\n");
	return -1;
}

/* The probes' program: return 0. */
static const struct bpf_insn ret0[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

/*
 * 1 when the kernel loads tp_btf programs (BPF_PROG_TYPE_TRACING attached
 * as BTF raw tracepoints), 0 when it does not, <0 when the probe failed.
 * libbpf's own probe of the type uses an fentry program, which kernels
 * without fentry refuse (EPERM) although tp_btf works.  This one asks for a
 * tp_btf program on BTF type 1, which is never a tracepoint's: a kernel that
 * knows the type refuses it with a verifier log naming attach_btf_id; one
 * that does not refuses it with EINVAL before any log, or with E2BIG when
 * it predates the attach_btf_id field itself.  No vmlinux BTF is
 * parsed for it (the load parses it once, and that costs ~10 ms).
 */
static int probe_tp_btf(void)
{
	char log[512] = "";
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_RAW_TP, .attach_btf_id = 1,
		    .log_buf = log, .log_size = sizeof(log), .log_level = 1);
	int fd, err;

	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, NULL, "GPL", ret0, 2, &opts);
	err = fd < 0 ? -errno : 0;
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	if (err == -EINVAL)
		return strstr(log, "attach_btf_id") ? 1 : 0;
	return err == -E2BIG ? 0 : err;
}

/* Whether a program of type (fentry, fexit) on the kernel function func loads: 0, or -errno. */
static int probe_tracing(const struct kernel_btf *kb, const char *func, enum bpf_attach_type type)
{
	int id = kernel_btf__func_id(kb, func), fd;

	if (id < 0)
		return id;
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = type, .attach_btf_id = id);
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, NULL, "GPL", ret0, 2, &opts);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int preflight__probe_fentry(const struct kernel_btf *kb)
{
	return probe_tracing(kb, DEPS_HOOK_OPEN_FUNC, BPF_TRACE_FEXIT);
}

void preflight__probe_mem(const struct kernel_btf *kb, struct mem_probe *p)
{
	/* sched_process_exit's own event class came with its move before exit_mm(). */
	static const char *const names[] = { "btf_trace_sched_prepare_exec", "trace_event_raw_sched_process_exit" };
	const char *funcs[3];
	bool found[2];

	kernel_btf__find(kb, names, found, 2); /* unreadable: neither, and no function either */
	p->prepare_exec_tp = found[0];
	p->exit_tp_first = found[1];
	mem_hook__fentry_funcs(p->prepare_exec_tp, p->exit_tp_first, funcs);
	p->fentry_err = funcs[0] ? 0 : -EAGAIN;
	for (int i = 0; funcs[i] && !p->fentry_err; i++)
		p->fentry_err = probe_tracing(kb, funcs[i], BPF_TRACE_FENTRY);
}

/*
 * 1 when the kernel's hash maps allocate from the BPF memory allocator: its
 * BTF then names it (the struct and its functions, 6.1), 0 when it does
 * not, -errno when the BTF cannot be read.  Its own effect cannot be probed
 * safely: before it, the verifier warns (a kernel WARN) of a tracing
 * program using a hash map that allocates.
 */
static int probe_mem_alloc(void)
{
	static const char *const names[] = { "bpf_mem_alloc" };
	bool found;
	int err = kernel_btf__has(names, &found, 1);

	return err ? err : found;
}

/*
 * What the kernel can do, probed rather than read from its version:
 * distribution kernels backport BPF features (and a new kernel can be built
 * without BTF).
 */
/*
 * Without the privilege to load BPF every probe fails with EPERM, and
 * libbpf's map probe then says "not supported": the BPF probes are left
 * at -EPERM (unknown) unless may_load.
 */
static void probe_kernel(struct kernel_features *f, struct utsname *u, bool may_load)
{
	f->release = uname(u) == 0 ? u->release : NULL;
	f->btf = access("/sys/kernel/btf/vmlinux", R_OK) == 0;
	f->tp_btf = may_load ? probe_tp_btf() : -EPERM;
	f->ringbuf = may_load ? libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, NULL) : -EPERM;
	/* Any tracing type has the helper; libbpf cannot probe tp_btf's. */
	f->task_btf = may_load ? libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, BPF_FUNC_get_current_task_btf, NULL)
			       : -EPERM;
	f->mem_alloc = probe_mem_alloc();
}

static int check_kernel(void)
{
	struct kernel_features f = {};
	struct utsname u;
	char line[512];

	probe_kernel(&f, &u, true);
	if (kernel_reqs__check(&f, line, sizeof(line)) == 0)
		return 0;
	fprintf(stderr, "buildbpf: %s\n", line);
	return -1;
}

int preflight__check(void)
{
	if (check_privileges())
		return -1;
	return check_kernel();
}

void preflight__print_features(FILE *out)
{
	struct kernel_features f = {};
	struct utsname u;

	bool may_load = bpf_privileged() > 0;
	struct kernel_btf kb;
	struct mem_probe mem = { .fentry_err = -EPERM };
	int fentry = -EPERM;
	char line[256];

	if (may_load) {
		kernel_btf__read(&kb); /* unreadable: the probe says ENOENT */
		fentry = preflight__probe_fentry(&kb);
		preflight__probe_mem(&kb, &mem);
		kernel_btf__release(&kb);
	}
	probe_kernel(&f, &u, may_load);
	kernel_reqs__print(out, &f);
	deps_hook__describe(line, sizeof(line), deps_hook__choose(fentry), fentry, may_load);
	fprintf(out, "%s\n", line);
	mem_hook__describe(line, sizeof(line), mem_hook__choose(&mem), &mem, may_load);
	fprintf(out, "%s\n", line);
}
