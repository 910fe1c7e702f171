/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A generated go module, standard library imports only (no proxy, no
 * network), whose `go build` runs each kind of tool the go command runs:
 *
 *   base     a small package;
 *   heavy    heavy_funcs generated functions over base: a long compile
 *            (go's compiler runs its back end on several threads, -c);
 *   mid      over heavy and base: compiled once heavy's export data is;
 *   fastadd  Add in amd64 assembly (asm, then pack), in Go elsewhere;
 *   ckit     a cgo package (cgo, then gcc, then compile);
 *   the main package over all of them, linked to the program gomod.
 *
 * Module example.com/gomod, go 1.19.  Plain C.
 */
#ifndef BUILDBPF_TESTS_GO_MODULE_H
#define BUILDBPF_TESTS_GO_MODULE_H

#define GO_MODULE_PATH "example.com/gomod"
/* The module's packages below its root, in dependency order (the main package is the root). */
#define GO_MODULE_PACKAGES { "base", "heavy", "mid", "fastadd", "ckit" }
#define GO_MODULE_NR_PACKAGES 5

struct go_module {
	/* Functions of the heavy package: its compile grows with them. */
	unsigned int heavy_funcs;
};

/* Writes the module under top (which exists).  0, or -errno. */
int go_module__write(const struct go_module *gm, const char *top);

#endif /* BUILDBPF_TESTS_GO_MODULE_H */
