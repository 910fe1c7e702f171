// SPDX-License-Identifier: GPL-2.0
/* Which steps are probes (include/model/probes.h). */
#include <stdbool.h>
#include <string.h>
#include "model/go_names.h"
#include "model/image_args.h"
#include "model/paths.h"
#include "model/probes.h"
#include "model/rust_names.h"

/*
 * What a probe works on, not a file of the build: /dev/null and stdin
 * ("-"), configure's conftest and conftest.*, kbuild's try-run scratch
 * directory .tmp_<pid>.
 */
static bool is_probe_file(const char *path)
{
	const char *base, *c;
	size_t len;

	if (!strcmp(path, "/dev/null") || !strcmp(path, "-"))
		return true;
	base = path_basename(path, &len);
	if (len >= 8 && !strncmp(base, "conftest", 8) && (len == 8 || base[8] == '.'))
		return true;
	for (c = path; (c = strstr(c, ".tmp_")); c += 5) {
		size_t digits = strspn(c + 5, "0123456789");

		if ((c == path || c[-1] == '/') && digits && (c[5 + digits] == '/' || !c[5 + digits]))
			return true;
	}
	return false;
}

enum probe_kind image_probe(const struct exec_image *img, enum tool_kind tool)
{
	size_t i, len = 0;
	const char *base = img->argc > 0 && img->argv[0] ? path_basename(img->argv[0], &len) : NULL;
	enum probe_kind kind = PROBE_NONE;

	if (base && len == 8 && !strncmp(base, "conftest", 8))
		return PROBE_CONFTEST;
	if (tool == TOOL_RUSTC)
		return rustc_is_probe(img) ? PROBE_OTHER : PROBE_NONE;
	if (tool == TOOL_GO_TOOL)
		return go_tool_is_probe(img) ? PROBE_OTHER : PROBE_NONE;
	if (!tool_kind__is_toolchain(tool))
		return PROBE_NONE;
	for (i = 1; i < img->argc && img->argv[i]; i++) {
		const char *arg = img->argv[i], *file = arg;

		if (!strcmp(arg, "-o") && i + 1 < img->argc && img->argv[i + 1])
			file = img->argv[++i];
		else if (arg[0] == '-' && arg[1]) {
			if (image_option_takes_value(arg))
				i++;
			continue;
		}
		if (is_probe_file(file))
			kind = strncmp(path_basename(file, &len), "conftest", 8) ? PROBE_OTHER : PROBE_CONFTEST;
		if (kind == PROBE_OTHER)
			break;
	}
	return kind;
}
