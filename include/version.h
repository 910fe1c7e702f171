/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BUILDBPF_VERSION_H
#define BUILDBPF_VERSION_H

#define BUILDBPF_VERSION "0.1.0"

#endif /* BUILDBPF_VERSION_H */
