#!/usr/bin/env bash
# Builds the guest's initramfs for one unpacked Debian kernel package:
#
#   initramfs.sh UNPACKED_DIR KVER OUT.cpio.gz
#
# It holds busybox, tests/kernels/guest-init as /init, and the modules the
# guest needs to mount the host's root over virtio-9p, decompressed (busybox
# insmod reads no .xz) and listed in /modules.order with every module after
# the ones it depends on.  Debian ships no modules.dep in the package (depmod
# makes it on install), so dependencies come from each module's own
# .modinfo "depends=" line.
set -euo pipefail

src=$1 kver=$2 out=$3
moddir=$src/lib/modules/$kver
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
busybox=$(command -v busybox) || { echo "initramfs: busybox is not installed (apt-get install busybox-static)" >&2; exit 1; }
ldd "$busybox" >/dev/null 2>&1 && { echo "initramfs: $busybox is not static (apt-get install busybox-static)" >&2; exit 1; }

# The shared folder and its transport; whatever is built in is skipped.
WANTED=(virtio_pci 9pnet_virtio 9p)

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,dev,proc,sys,newroot,modules}
cp "$busybox" "$root/bin/busybox"
cp "$here/guest-init" "$root/init"
chmod 755 "$root/init"

declare -A done_mods=()
# A module's file, by module name (the file may spell _ as -).
mod_file() {
	local pat=${1//_/[_-]}
	find "$moddir/kernel" -regextype posix-extended -regex ".*/$pat\\.ko(\\.xz|\\.zst|\\.gz)?" | head -n1
}
add_mod() {
	local name=$1 file dep
	[ -n "${done_mods[$name]:-}" ] && return 0
	done_mods[$name]=1
	file=$(mod_file "$name")
	if [ -z "$file" ]; then
		# Built into the kernel (modules.builtin), or no such module.
		grep -Eq "/${name//_/[_-]}\\.ko\$" "$moddir/modules.builtin" 2>/dev/null && return 0
		echo "initramfs: $kver has no module $name" >&2
		return 1
	fi
	case $file in
	*.xz) xz -dc "$file" > "$root/modules/$name.ko" ;;
	*.zst) zstd -qdc "$file" > "$root/modules/$name.ko" ;;
	*.gz) gzip -dc "$file" > "$root/modules/$name.ko" ;;
	*) cp "$file" "$root/modules/$name.ko" ;;
	esac
	for dep in $(grep -ao 'depends=[a-z0-9_,-]*' "$root/modules/$name.ko" | sed 's/^depends=//' | tr ',' ' '); do
		add_mod "$dep"
	done
	echo "$name.ko" >> "$root/modules.order"
}
: > "$root/modules.order"
for m in "${WANTED[@]}"; do add_mod "$m"; done

(cd "$root" && find . | busybox cpio -o -H newc 2>/dev/null) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
