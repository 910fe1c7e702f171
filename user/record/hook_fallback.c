// SPDX-License-Identifier: GPL-2.0
#include "record/hook_fallback.h"

enum hook_fallback hook_fallback__next(enum hook_refused refused, enum mem_hook mem, bool deps_fentry)
{
	bool mem_fentry = mem == MEM_HOOK_FENTRY;

	switch (refused) {
	case HOOK_REFUSED_MEM:
		return mem_fentry ? HOOK_FALLBACK_MEM : HOOK_FALLBACK_NONE;
	case HOOK_REFUSED_DEPS:
		return deps_fentry ? HOOK_FALLBACK_DEPS : HOOK_FALLBACK_NONE;
	case HOOK_REFUSED_UNKNOWN:
		return mem_fentry ? HOOK_FALLBACK_MEM : deps_fentry ? HOOK_FALLBACK_DEPS : HOOK_FALLBACK_NONE;
	default:
		return HOOK_FALLBACK_NONE;
	}
}
