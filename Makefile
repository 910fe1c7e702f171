# buildbpf — trace a build's process tree with eBPF into a Chrome trace.
#
#   make            build build/buildbpf          (V=1 shows the commands)
#   sudo make demo  trace the bundled example build into build/demo-trace.json
#   sudo make test  install missing Debian packages, build, run every test
#                   stage (15-45 min), then one summary table
#   sudo make test-quick  build, unit and integration tests (~3 min)
#   sudo make test-kernels  the CO-RE kernel matrix under qemu (KVM when it
#                   boots a guest, else TCG)
#   make vmlinux    regenerate vmlinux/vmlinux.h from the running kernel's BTF

.DELETE_ON_ERROR:
.SECONDEXPANSION:
# Keep BPF objects between the compile and skeleton steps.
.SECONDARY:
.SUFFIXES:

BUILD	:= build
CC	?= cc
CLANG	?= clang
BPFTOOL	?= bpftool
# The BPF programs serve x86-64 only: bpf/file_events.bpf.c knows x86-64's
# syscall numbers and vmlinux/vmlinux.h is an x86-64 kernel's.  Another
# architecture stops at the first BPF object (the pure parts still build).
ARCH	:= $(shell uname -m | sed -e 's/x86_64/x86/')
BPF_ARCHS := x86

ifeq ($(V),1)
Q :=
msg =
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

PKGS	:= libbpf json-c
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# libm for the what-if's fit (sqrt), in every program that links the stages.
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm

WARN	:= -Wall -Wextra -Werror
CFLAGS	?= -O2 -g
SAN_FLAGS ?=
ALL_CFLAGS = -std=gnu11 $(WARN) $(CPPFLAGS) $(CFLAGS) $(SAN_FLAGS) -D_GNU_SOURCE -Iinclude -I$(BUILD) $(EXTRA_INC) $(PKG_CFLAGS) -MMD -MP
ALL_LDFLAGS = $(SAN_FLAGS) $(LDFLAGS)

# The pipeline's stages are folders of user/ (docs/design.md, "Layout").  Code that
# touches the kernel, the build's processes or output files lives in
# user/record/ and user/output/, and user/main.c (with user/main/, one file
# per mode too big for it) wires it; every other
# folder is pure and links into the unit tests, with the record stage's
# kernel-requirements table (pure, tested from tables), trace directory
# (plain files, tested on temporary trees), --attach's pick of a process
# tree from a task snapshot (pure), PSI reader (tested on text), choice
# of the file-dependency and memory hooks (pure, from the probes' results)
# and of the one that gives way when the kernel refuses it, BTF
# look-ups and the CO-RE BTF (tested on BTF built by hand), the command's PATH look-up
# (tested on temporary trees), whose a process is (tested on its own) and
# cargo's config files and go's env file (tested on text and temporary trees).
SYSTEM_DIRS := record output main
ALL_SRCS  := $(wildcard user/*/*.c)
CORE_SRCS := $(filter-out $(SYSTEM_DIRS:%=user/%/%),$(ALL_SRCS)) user/record/kernel_reqs.c user/record/trace_dir.c \
	     user/record/attach_tree.c user/record/cgroup_path.c user/record/mem_pressure.c user/record/deps_probe.c \
	     user/record/mem_probe.c user/record/hook_fallback.c user/record/kernel_btf.c user/record/core_btf.c \
	     user/record/command_path.c user/record/proc_owner.c user/record/cargo_config.c user/record/go_env.c
APP_SRCS  := $(filter-out $(CORE_SRCS),$(ALL_SRCS)) user/main.c
BPF_SRCS  := $(wildcard bpf/*.bpf.c)

CORE_OBJS := $(CORE_SRCS:%.c=$(BUILD)/%.o)
APP_OBJS  := $(APP_SRCS:%.c=$(BUILD)/%.o)
BPF_OBJS  := $(BPF_SRCS:bpf/%.bpf.c=$(BUILD)/bpf/%.bpf.o)
# All programs are linked into one object: one skeleton, one load, one parse
# of the kernel's BTF (libbpf's ~90 ms share of the start-up cost).
BPF_LINKED := $(BUILD)/bpf/buildbpf.bpf.o
SKELS	  := $(BUILD)/buildbpf.skel.h

# Unit suites (tests/unit/, no root) and integration suites
# (tests/integration/, root: they load the BPF programs) are two binaries;
# tests/lib/ holds the helpers both use.
TEST_LIB_SRCS := $(wildcard tests/lib/*.c)
TEST_LIB_OBJS := $(filter-out $(BUILD)/tests/lib/trace_check.o,$(TEST_LIB_SRCS:%.c=$(BUILD)/%.o))
UNIT_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/unit/*.c))
INTEG_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/integration/*.c))
UNIT_BIN  := $(BUILD)/tests/unit-tests
INTEG_BIN := $(BUILD)/tests/integration-tests
# The kbuild slice (make test-real-kbuild): its own binary, so make test
# does not run it.
KBUILD_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/real/*.c))
KBUILD_BIN := $(BUILD)/tests/real-kbuild-tests
TEST_BINS := $(UNIT_BIN) $(INTEG_BIN)
# Workloads the integration tests trace.
TEST_PROGS := $(patsubst tests/workloads/%.c,$(BUILD)/tests/%,$(subst _,-,$(wildcard tests/workloads/*.c)))
# Reads a trace back for the shell checks (tests/valgrind_check.sh).
TRACE_CHECK := $(BUILD)/tests/trace-check

BIN	  := $(BUILD)/buildbpf

.PHONY: all clean install uninstall deb test-deb demo screenshots test test-quick test-build test-integration test-unit test-repo test-install test-asan test-valgrind test-kernels fuzz deps test-deps viewer-deps vmlinux bench \
	test-real-kbuild kbuild-deps \
	bench-convert bench-shapes
all: $(BIN)

# --version names the commit built from: git's, when this is the top of a git
# checkout (a tarball, or the Debian build of one, has none; BUILDBPF_COMMIT=
# may say it instead).  Rewritten only when it changes, so a commit rebuilds
# one object.
BUILD_INFO := $(BUILD)/build_info.h
BUILDBPF_COMMIT ?= $(shell [ "$$(git -C $(CURDIR) rev-parse --show-toplevel 2>/dev/null)" = "$(CURDIR)" ] && \
	git -C $(CURDIR) describe --always --abbrev=12 --dirty 2>/dev/null)
$(BUILD_INFO): FORCE
	$(Q)mkdir -p $(@D)
	$(Q)printf '#define BUILDBPF_COMMIT "%s"\n' '$(BUILDBPF_COMMIT)' > $@.tmp
	$(Q)if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/user/cli/cli_usage.o: $(BUILD_INFO)
# Phony, so that it is remade every time: under .SECONDARY a plain FORCE: would
# count as a missing intermediate file, which makes rebuild nothing.
.PHONY: FORCE
FORCE:

$(BIN): $(CORE_OBJS) $(APP_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

# Skeletons must exist before any user object that includes them is built.
$(APP_OBJS): | $(SKELS)

$(BUILD)/%.o: %.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/bpf/%.bpf.o: bpf/%.bpf.c vmlinux/vmlinux.h
	$(if $(filter $(BPF_ARCHS),$(ARCH)),,$(error buildbpf: ARCH=$(ARCH): the BPF programs are built for $(BPF_ARCHS) (x86-64) \
		only: bpf/file_events.bpf.c knows only its syscall numbers, and vmlinux/vmlinux.h is an x86-64 kernel's))
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Wall -Werror \
		-Iinclude -Ivmlinux -MMD -MP -c -o $@ $<

$(BPF_LINKED): $(BPF_OBJS)
	$(call msg,BPF-LINK,$@)
	$(Q)$(BPFTOOL) gen object $@ $^

$(SKELS): $(BPF_LINKED)
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name buildbpf_bpf > $@

# Suites include their helpers as "lib/…".
$(UNIT_OBJS) $(INTEG_OBJS) $(KBUILD_OBJS) $(TEST_LIB_OBJS): EXTRA_INC := -Itests

$(UNIT_BIN): $(UNIT_OBJS) $(TEST_LIB_OBJS) $(CORE_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS) -lcriterion

$(INTEG_BIN): $(INTEG_OBJS) $(TEST_LIB_OBJS) $(CORE_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS) -lcriterion

$(KBUILD_BIN): $(KBUILD_OBJS) $(TEST_LIB_OBJS) $(CORE_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS) -lcriterion

$(BUILD)/tests/%: tests/workloads/$$(subst -,_,%).c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 $(WARN) -O2 -pthread -o $@ $<

$(TRACE_CHECK): tests/lib/trace_check.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 $(WARN) -O2 $(shell pkg-config --cflags json-c 2>/dev/null) -o $@ $< \
		$(shell pkg-config --libs json-c 2>/dev/null)

vmlinux:
	$(call msg,GEN,vmlinux/vmlinux.h)
	$(Q)$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > vmlinux/vmlinux.h.tmp
	$(Q)mv vmlinux/vmlinux.h.tmp vmlinux/vmlinux.h

# Debian 12 packages the build and the tests need; installed only if missing.
DEB_PKGS := make clang llvm pkg-config libbpf-dev bpftool libjson-c-dev libelf-dev zlib1g-dev libcriterion-dev \
	    valgrind libclang-rt-14-dev
# Only make test needs these (test-deps), so make demo stays quick: the
# Debian package's build and check, the man page's rendering, and the
# completion's run.
PACKAGING_DEB_PKGS := debhelper dpkg-dev lintian man-db groff-base bash-completion
# The integration suites: a real compile server (distccd) for the daemon
# tests; the compiler caches (ccache, sccache: Debian 12 packages both) whose
# own statistics the compiler_cache tests check the audit against; setcap
# (libcap2-bin), which gives buildbpf file capabilities in the security tests.
INTEG_DEB_PKGS := distcc ccache sccache libcap2-bin
# The checkout's checks (make test-repo): git lists the tracked files,
# python3-yaml parses the CI recipes.
REPO_DEB_PKGS := git python3-yaml
# The kernel matrix (make test-kernels): qemu boots Debian's kernels, with
# busybox-static in their initramfs.  tests/kernels/matrix.sh installs them
# itself when make test-kernels runs alone.
KERNELS_DEB_PKGS := qemu-system-x86 busybox-static
VIEWER_DEB_PKGS := chromium nodejs npm
# The ninja oracle (tests/integration/test_ninja_oracle.c): a CMake project
# built by ninja, whose own graph the inferred one is checked against.
ORACLE_DEB_PKGS := cmake ninja-build
# The real builds (tests/integration/test_real_builds.c): Debian's sources of
# json-c and sed (apt-get source, with dpkg-dev), built with gcc, cmake + ninja
# and make; fetched once into $(REAL_SRC), which make clean leaves alone.  The
# kbuild slice (make test-real-kbuild) adds linux-source-6.1 and kbuild's
# flex, bison and bc.
REAL_DEB_PKGS := dpkg-dev gcc make cmake ninja-build
KBUILD_DEB_PKGS := flex bison bc libelf-dev
# The toolchains that are not make or ninja (tests/integration/test_cargo.c,
# test_go.c): Debian's cargo and rustc (one rustc per unit, its own
# jobserver, pipelining on .rmeta files), go (compile, asm, cgo, link from
# its tool directory), and meson, which writes ninja files.  The real cargo
# and go programs (ripgrep, fzf) are fetched with the other sources and their
# build dependencies installed by tests/real/fetch_sources.sh.
TOOLCHAIN_DEB_PKGS := cargo rustc golang-go meson
REAL_SRC ?= $(or $(BUILDBPF_CACHE),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/buildbpf)/src
deps: WANTED_PKGS := $(DEB_PKGS)
# Every package a stage of make test runs; no test skips for one of them.
test-deps: WANTED_PKGS := $(DEB_PKGS) $(PACKAGING_DEB_PKGS) $(INTEG_DEB_PKGS) $(REPO_DEB_PKGS) $(ORACLE_DEB_PKGS) \
	$(REAL_DEB_PKGS) $(KERNELS_DEB_PKGS) $(TOOLCHAIN_DEB_PKGS)
kbuild-deps: WANTED_PKGS := $(DEB_PKGS) $(REAL_DEB_PKGS) $(KBUILD_DEB_PKGS)
deps test-deps kbuild-deps:
	$(Q)missing=; for p in $(WANTED_PKGS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "  DEPS     installing:$$missing"; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi
	$(Q)$(if $(filter test-deps,$@),tests/real/fetch_sources.sh $(REAL_SRC) >/dev/null)
	$(Q)$(if $(filter kbuild-deps,$@),tests/real/fetch_sources.sh --kbuild $(REAL_SRC) >/dev/null)

# The real-viewer check (tests/viewer/): its scripts and the npm packages
# of its lockfile (playwright-core drives Debian's chromium; the DevTools
# trace engine) in $(VIEWER_DIR).  npm ci runs again only when the lockfile
# changes; the scripts are copied every time.
VIEWER_DIR := $(BUILD)/viewer
VIEWER_FILES := $(wildcard tests/viewer/*.cjs tests/viewer/*.mjs) tests/viewer/package.json tests/viewer/package-lock.json
viewer-deps:
	$(Q)command -v chromium >/dev/null 2>&1 && command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || { \
		echo "  DEPS     installing: chromium (and node/npm if missing)"; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium \
			$$(command -v node >/dev/null 2>&1 || echo nodejs) $$(command -v npm >/dev/null 2>&1 || echo npm); }
	$(Q)mkdir -p $(VIEWER_DIR)
	$(Q)if [ ! -d $(VIEWER_DIR)/node_modules ] || ! cmp -s tests/viewer/package-lock.json $(VIEWER_DIR)/package-lock.json; then \
		echo "  NPM      npm ci in $(VIEWER_DIR)"; \
		rm -rf $(VIEWER_DIR)/node_modules && cp $(VIEWER_FILES) $(VIEWER_DIR)/ && \
		(cd $(VIEWER_DIR) && npm ci --no-audit --no-fund --loglevel=error) || exit 1; \
	fi
	$(Q)cp $(VIEWER_FILES) $(VIEWER_DIR)/

# The checkout itself: no build output tracked by git (skipped, saying why,
# outside a git checkout), no Criterion gt() that passes on equality, no
# assertion whose two sides are the same expression; the CI recipes' YAML
# parses and calls the script the suite runs; the man page and completion name
# the option table's options and no other (read from the binary, built first);
# and make test's stage runner on made-up stages.
test-repo: $(BIN)
	$(Q)tests/run_stages.sh --self-test
	$(Q)bench/bench.sh --self-test
	$(Q)$(MAKE) -n --no-print-directory $(BUILD_INFO) | grep -q BUILDBPF_COMMIT || \
		{ echo "test-repo: $(BUILD_INFO) would not be remade: --version would name a stale commit" >&2; exit 1; }
	$(Q)tests/repo/tracked_files_check.sh --self-test
	$(Q)tests/repo/tracked_files_check.sh
	$(Q)tests/repo/criterion_gt_check.sh
	$(Q)tests/repo/doc_links_check.sh --self-test && tests/repo/doc_links_check.sh
	$(Q)tests/repo/same_sides_check.sh --self-test
	$(Q)tests/repo/same_sides_check.sh
	$(Q)tests/repo/ci_recipes_check.sh --self-test && tests/repo/ci_recipes_check.sh
	$(Q)tests/repo/options_docs_check.sh --self-test $(BIN) && tests/repo/options_docs_check.sh $(BIN)

# Unit tests need no root; the integration suites (which load BPF and run
# build/buildbpf) run when the suite runs as root.
test-unit: $(UNIT_BIN)
	$(call msg,LAYERS,no header of a later stage)
	$(Q)tests/check_layers.sh
	$(Q)./$(UNIT_BIN)

# What the suites run: buildbpf, both Criterion binaries, the traced
# workloads, the trace reader of the shell checks, and the benchmark
# generator (so that a change cannot silently break make bench-convert).
test-build:
	$(Q)$(MAKE) --no-print-directory all $(TEST_BINS) $(TEST_PROGS) $(TRACE_CHECK) $(BUILD)/bench/gen-log

# The integration suites (root: they load BPF), on the tool and workloads of
# this build; CRITERION_FLAGS='--filter load/*' runs some of them.
CRITERION_FLAGS ?=
# The suites trace makes of their own: a make around the suite (make -j2
# test) must not lend them its jobserver or flags ("-j2 forced in submake").
SUITE_ENV := env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u GNUMAKEFLAGS
test-integration: $(BIN) $(INTEG_BIN) $(TEST_PROGS) $(TRACE_CHECK) viewer-deps
	$(Q)$(SUITE_ENV) BUILDBPF_BIN=$(abspath $(BIN)) BUILDBPF_VIEWER_DIR=$(abspath $(VIEWER_DIR)) BUILDBPF_REAL_SRC=$(REAL_SRC) \
		./$(INTEG_BIN) $(CRITERION_FLAGS)

# sudo make test: every stage (the list is in tests/run_stages.sh), each run
# to its end even when one before it failed, then one table of results,
# counts, times, failed tests and their logs (build/test-logs/STAGE.log);
# exit 1 when any stage failed.  The stages: packages and build; layers; unit
# tests; the checkout's hygiene; man page, completion and make install; the
# integration suites; the Debian package built, installed, used and purged;
# Memcheck; libFuzzer for $(FUZZ_SECONDS) s; the reliability table
# (build/reliability.md, from build/test-output.txt); the suites again under
# ASan and UBSan; the kernel matrix under qemu.
# Cost on 2 CPUs: 15 min measured (load average 9 to 2; the sanitizer rerun
# and the TCG kernel matrix take 9 of it), 44 min reported at load 3-20;
# plus the packages: ~1.9 GB of Debian packages where the build alone needs
# ~0.7 GB (chromium, node and npm, qemu and busybox-static, debhelper and
# lintian, distcc, cmake, ninja), 39 MB of npm packages in build/viewer, and
# two Debian kernels fetched once (178 MB; 680 MB unpacked in
# ~/.cache/buildbpf).  STAGES="unit fuzz" runs some stages only.
test:
	$(Q)MAKE='$(MAKE)' BUILD='$(BUILD)' STAGES='$(STAGES)' tests/run_stages.sh full

# sudo make test-quick: for everyday work, the same table over packages and
# build, layers, unit tests, the checkout's hygiene and the integration
# suites: 3 min on 2 busy CPUs once built.  No kernel, no package, no
# sanitizer build.
test-quick:
	$(Q)MAKE='$(MAKE)' BUILD='$(BUILD)' STAGES='$(STAGES)' tests/run_stages.sh quick

# The CO-RE kernel matrix (tests/kernels/matrix.sh): Debian 12's 6.1 and 6.12
# kernels, and the running one when its image is on disk, each booted under
# qemu with the suites run inside on the binary built here.  Under KVM when a
# guest really boots with it, else under TCG (the table says why); SKIPPED
# only when qemu cannot be installed.  The kernels (~180 MB, fetched once)
# stay in ~/.cache/buildbpf, which make clean leaves alone.
ACCEL ?= auto
test-kernels: deps
	$(Q)$(MAKE) --no-print-directory $(if $(filter 1,$(V)),,-s) all $(TEST_BINS) $(TEST_PROGS) $(TRACE_CHECK)
	$(call msg,MATRIX,kernels under qemu ($(ACCEL)))
	$(Q)ACCEL=$(ACCEL) tests/kernels/matrix.sh $(BUILD)

# A kbuild slice of Debian's linux-source-6.1 traced (tests/real/): make
# tinyconfig, then make -j2 kernel/ mm/: 4-5 minutes on 2 CPUs at load
# average 4-7 (the traced build 100-128 s; 4.4 min untraced at load 8), plus
# 140 MB fetched once (1.3 GB unpacked), so not part of make test.
test-real-kbuild: kbuild-deps
	$(Q)$(MAKE) --no-print-directory $(if $(filter 1,$(V)),,-s) all $(KBUILD_BIN)
	$(Q)BUILDBPF_BIN=$(abspath $(BIN)) BUILDBPF_REAL_SRC=$(REAL_SRC) ./$(KBUILD_BIN) --verbose

# buildbpf under Memcheck on real traced commands (root): any Memcheck error,
# definite or indirect leak, or a trace missing, invalid or incomplete fails.
test-valgrind: deps
	$(Q)$(MAKE) --no-print-directory $(if $(filter 1,$(V)),,-s) all $(TRACE_CHECK) $(BUILD)/tests/load-gen
	$(Q)tests/valgrind_check.sh $(BUILD)

ASAN_BUILD := build-asan
# Leaks are checked in buildbpf (BUILDBPF_ASAN_OPTIONS, set for it by the
# integration helpers), not in the Criterion runner, whose own library
# leaks 48 bytes now and then.
ASAN_ENV := ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:exitcode=99 \
	BUILDBPF_ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=99
test-asan: deps viewer-deps
	$(Q)$(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) CFLAGS="-O1 -g" \
		SAN_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer" \
		all $(TEST_BINS:$(BUILD)/%=$(ASAN_BUILD)/%) $(TEST_PROGS:$(BUILD)/%=$(ASAN_BUILD)/%)
	$(Q)echo "  TEST     under AddressSanitizer + UndefinedBehaviorSanitizer"
	$(Q)$(ASAN_ENV) ./$(ASAN_BUILD)/tests/unit-tests
	$(Q)$(SUITE_ENV) $(ASAN_ENV) BUILDBPF_BIN=$(abspath $(ASAN_BUILD)/buildbpf) BUILDBPF_VIEWER_DIR=$(abspath $(VIEWER_DIR)) \
		BUILDBPF_REAL_SRC=$(REAL_SRC) ./$(ASAN_BUILD)/tests/integration-tests

# The event-log reader under libFuzzer (clang), with ASan and UBSan: any
# crash, leak, hang (-timeout) or RSS past the limit fails.  The corpus
# starts from the checked-in recordings; it grows in $(FUZZ_BUILD) only.
FUZZ_BUILD   := build-fuzz
FUZZ_SECONDS ?= 60
# One budget for both targets: a third (at least 1 s) to the reader alone,
# which runs ~100 times as many inputs, the rest to reader + replay +
# analysis (graph, start causes, audit, every output).
FUZZ_READER_SECONDS = $(shell s=$(FUZZ_SECONDS); echo $$(( s / 3 > 0 ? s / 3 : 1 )))
FUZZ_REPLAY_SECONDS = $(shell s=$(FUZZ_SECONDS); r=$(FUZZ_READER_SECONDS); echo $$(( s - r > 0 ? s - r : 1 )))
FUZZ_BIN     := $(FUZZ_BUILD)/tests/event-log-fuzz
FUZZ_READER_BIN := $(FUZZ_BUILD)/tests/event-log-reader-fuzz
# -timeout is wall time: the slowest seed (res1ns-1000-gaps) takes 2.5 s of CPU
# under ASan, so 30 s holds on a 2-CPU machine shared several ways, and an
# input costing n^2 at 64 KB (minutes) still fails.
FUZZ_TIMEOUT := 30
FUZZ_OPTS    := -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1
$(BUILD)/tests/fuzz/event_log_fuzz.o: EXTRA_INC := -Itests
$(BUILD)/tests/event-log-fuzz: $(BUILD)/tests/fuzz/event_log_fuzz.o $(BUILD)/tests/lib/analysis.o $(CORE_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS)
$(BUILD)/tests/event-log-reader-fuzz: $(BUILD)/tests/fuzz/event_log_reader_fuzz.o $(CORE_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS)
fuzz: deps
	$(Q)$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=$(CLANG) CFLAGS="-O1 -g" \
		SAN_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
		$(FUZZ_BIN) $(FUZZ_READER_BIN)
	@# Seeds: real recordings, and hostile ones that once cost minutes or gigabytes
	@# (1 ns resolution, 8192 CPUs, 12 idle hours; the unit tests' crafted logs).
	$(Q)for c in corpus reader-corpus; do mkdir -p $(FUZZ_BUILD)/$$c && \
		cp tests/fixtures/*.bbl tests/fuzz/seeds/*.bbl $(FUZZ_BUILD)/$$c/ || exit 1; done
	$(Q)echo "  FUZZ     event log reader, replay and analysis, $(FUZZ_REPLAY_SECONDS) s"
	$(Q)./$(FUZZ_BIN) -max_total_time=$(FUZZ_REPLAY_SECONDS) $(FUZZ_OPTS) \
		$(FUZZ_BUILD)/corpus > $(FUZZ_BUILD)/fuzz.log 2>&1 || \
		{ tail -60 $(FUZZ_BUILD)/fuzz.log; echo "fuzz: the event log reader failed (see $(FUZZ_BUILD)/fuzz.log)"; exit 1; }
	$(Q)tests/fuzz/fuzz_row.sh $(FUZZ_BUILD)/fuzz.log $(FUZZ_REPLAY_SECONDS) $(FUZZ_TIMEOUT)
	$(Q)echo "  FUZZ     event log reader alone, $(FUZZ_READER_SECONDS) s"
	$(Q)./$(FUZZ_READER_BIN) -max_total_time=$(FUZZ_READER_SECONDS) $(FUZZ_OPTS) \
		$(FUZZ_BUILD)/reader-corpus > $(FUZZ_BUILD)/fuzz-reader.log 2>&1 || \
		{ tail -60 $(FUZZ_BUILD)/fuzz-reader.log; echo "fuzz: the event log reader failed (see $(FUZZ_BUILD)/fuzz-reader.log)"; exit 1; }
	$(Q)tests/fuzz/fuzz_row.sh $(FUZZ_BUILD)/fuzz-reader.log $(FUZZ_READER_SECONDS) $(FUZZ_TIMEOUT) reader

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	@# A clean copy: whatever a make -C tests/demo left in out/ stays out.
	$(Q)rm -rf $(BUILD)/demo && cp -r tests/demo $(BUILD)/demo && rm -rf $(BUILD)/demo/out
	@# Under sudo the build runs as the invoking user: it must own its tree.
	$(Q)if [ -n "$$SUDO_UID" ]; then chown -R "$$SUDO_UID:$${SUDO_GID:-$$SUDO_UID}" $(BUILD)/demo; fi
	$(Q)./$(BIN) -f -o $(BUILD)/demo-trace.json -- $(MAKE) --no-print-directory -C $(BUILD)/demo -j2
	@echo "Open $(BUILD)/demo-trace.json in https://ui.perfetto.dev or chrome://tracing"

# The pictures of docs/html-report.md, at 1400 px wide, from recordings:
# make screenshots SHOTS='lz4=lz4.bbl,strip json-c=json-c.bbl sed=sed.bbl'
# (tools/screenshots.sh; ",strip" adds the mouse over the CPU strip).
SHOTS ?=
screenshots: all viewer-deps
	$(Q)tools/screenshots.sh -o docs/images $(SHOTS)

# Needs root: sudo make bench.  Every level side by side in one run, as ratios
# to the untraced build of the same repetition (docs/overhead.md).
# BENCH_FLAGS='--reps 3 --only storm' passes options to bench/bench.sh.
BENCH_FLAGS ?=
bench: all
	$(Q)bench/bench.sh $(BENCH_FLAGS)

# Writes synthetic event logs for bench/convert.sh (make bench-convert).
# The builds it writes are the scale tests' (tests/lib/big_build.c, tests/lib/build_shapes.c).
$(BUILD)/bench/gen_log.o: EXTRA_INC := -Itests
$(BUILD)/bench/gen-log: $(BUILD)/bench/gen_log.o $(BUILD)/tests/lib/big_build.o $(BUILD)/tests/lib/build_shapes.o \
		$(CORE_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)
bench-convert: all $(BUILD)/bench/gen-log
	$(Q)bench/convert.sh --build $(BUILD)

# Each build shape at 8,000 and 16,000 jobs: CPU s and the ratio per doubling.
bench-shapes: all $(BUILD)/bench/gen-log
	$(Q)bench/convert.sh --build $(BUILD) --shapes 8000

# Installs like a packaged tool: the binary (its BPF programs inside, in the
# skeleton), the man page, the bash completion, and the README with docs/ as
# its documentation (docs/ beside the README, so their links hold installed).
PREFIX	?= /usr/local
DESTDIR	?=
BINDIR	 = $(PREFIX)/bin
MANDIR	 = $(PREFIX)/share/man
DOCDIR	 = $(PREFIX)/share/doc/buildbpf
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
# The CI recipes' script (docs/ci.md): a job that installs the package finds it here.
CIDIR	 = $(PREFIX)/share/buildbpf/ci
DOCS	:= $(wildcard docs/*.md)
INSTALLED := $(BINDIR)/buildbpf $(MANDIR)/man1/buildbpf.1 $(BASHCOMPDIR)/buildbpf $(DOCDIR)/README.md \
	$(DOCS:%=$(DOCDIR)/%) $(CIDIR)/buildbpf-ci.sh
install: $(BIN)
	$(call msg,INSTALL,$(DESTDIR)$(PREFIX))
	$(Q)install -D -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/buildbpf
	$(Q)install -D -m 0644 man/buildbpf.1 $(DESTDIR)$(MANDIR)/man1/buildbpf.1
	$(Q)install -D -m 0644 completion/buildbpf $(DESTDIR)$(BASHCOMPDIR)/buildbpf
	$(Q)install -D -m 0755 contrib/ci/buildbpf-ci.sh $(DESTDIR)$(CIDIR)/buildbpf-ci.sh
	$(Q)install -D -m 0644 README.md $(DESTDIR)$(DOCDIR)/README.md
	$(Q)install -d $(DESTDIR)$(DOCDIR)/docs && install -m 0644 $(DOCS) $(DESTDIR)$(DOCDIR)/docs/
uninstall:
	$(call msg,UNINSTALL,$(DESTDIR)$(PREFIX))
	$(Q)rm -f $(INSTALLED:%=$(DESTDIR)%)
	$(Q)rmdir $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR) $(DESTDIR)$(CIDIR) $(DESTDIR)$(PREFIX)/share/buildbpf 2>/dev/null || true

# The Debian package (debian/), built from a copy of the tree in $(DEB_DIR)
# (dh_auto_clean must not clean this one), with the commit of this checkout.
# lintian must report no error.
VERSION := $(shell sed -n 's/^\#define BUILDBPF_VERSION "\(.*\)"/\1/p' include/version.h)
DEB_DIR := $(BUILD)/deb
DEB_SRC := $(DEB_DIR)/buildbpf-$(VERSION)
deb: test-deps
	$(call msg,DEB,$(DEB_DIR)/buildbpf_$(VERSION)_*.deb)
	$(Q)rm -rf $(DEB_DIR) && mkdir -p $(DEB_SRC)
	$(Q)tar -c --exclude=./.git --exclude=./build --exclude=./build-asan --exclude=./build-fuzz \
		--exclude=./tests/demo/out . | tar -x -C $(DEB_SRC)
	@# The package's make is its own: nothing of this make's command line or
	@# jobserver leaks into it.
	$(Q)cd $(DEB_SRC) && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL BUILDBPF_COMMIT='$(BUILDBPF_COMMIT)' \
		dpkg-buildpackage -us -uc -b > ../build.log 2>&1 || \
		{ tail -40 ../build.log; echo "buildbpf: dpkg-buildpackage failed (see $(DEB_DIR)/build.log)" >&2; exit 1; }
	$(call msg,LINTIAN,$(DEB_DIR)/buildbpf_$(VERSION)_*.changes)
	$(Q)lintian --fail-on error $(DEB_DIR)/buildbpf_$(VERSION)_*.changes

# make deb, then the package installed with apt-get, used and purged (root).
test-deb: deb $(TRACE_CHECK)
	$(Q)tests/install/deb_check.sh $(BUILD)

# The man page and completion against --help, then an install into a
# scratch DESTDIR, used from there, and uninstalled without a trace.
test-install: test-deps
	$(Q)$(MAKE) --no-print-directory $(if $(filter 1,$(V)),,-s) $(BIN)
	$(Q)tests/install/docs_check.sh $(BIN)
	$(Q)tests/install/install_check.sh

clean:
	$(call msg,CLEAN,$(BUILD))
	$(Q)rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
