#!/usr/bin/env bash
# make test-kernels: boots each kernel of the matrix under qemu and runs the
# BPF integration suites inside it with the binary built once on the host.
#
#   matrix.sh BUILD_DIR
#
#   ACCEL=kvm        (default) needs a usable /dev/kvm, else prints SKIPPED
#                    and exits 0: a skipped matrix is never reported passed
#   ACCEL=tcg        software emulation, opt-in: works anywhere, ~10x slower
#   KERNEL_PKGS=...  Debian linux-image packages (default: the newest 6.1 and
#                    6.12 ABIs the apt sources carry)
#   KERNEL_TIMEOUT=s one guest's budget, boot to power-off (default 300 under
#                    KVM, 900 under TCG); a guest still running is killed
#   KERNEL_TESTS=glob Criterion --filter of the tests run in each guest
#                    (default: the integration and sched suites; under TCG
#                    without the two that hold CPU time to real-CPU bounds)
#
# Kernels and guest logs go to BUILD_DIR/kernels; the per-kernel table to
# BUILD_DIR/kernels/results.md.  Exits 1 if any kernel failed or timed out.
set -euo pipefail
shopt -s extglob

build=$(cd "${1:?usage: matrix.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
kdir=$build/kernels
ACCEL=${ACCEL:-kvm}

say() { printf '  %-8s %s\n' "$1" "$2"; }
die() { echo "test-kernels: $*" >&2; exit 1; }

kvm_problem() {
	if [ ! -e /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo; then
		modprobe kvm_intel 2>/dev/null || modprobe kvm_amd 2>/dev/null || true
	fi
	if [ ! -e /dev/kvm ]; then
		if grep -qwE 'vmx|svm' /proc/cpuinfo; then
			echo "no /dev/kvm: the kvm module is not loaded"
		else
			echo "no /dev/kvm, and the CPU shows no vmx/svm: this machine has no (nested) virtualization"
		fi
	elif [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		echo "/dev/kvm is not readable and writable by $(id -un)"
	fi
}

case $ACCEL in
kvm)
	problem=$(kvm_problem)
	if [ -n "$problem" ]; then
		echo "SKIPPED: kernel matrix: /dev/kvm not usable ($problem)."
		echo "SKIPPED: no guest kernel was tested; ACCEL=tcg runs the matrix under software emulation."
		exit 0
	fi
	accel=kvm cpu=host timeout=${KERNEL_TIMEOUT:-300}
	KERNEL_TESTS=${KERNEL_TESTS:-@(integration|sched)/*} ;;
tcg)
	# One host thread for all vCPUs: under multi-threaded TCG a 6.12
	# guest died of "Oops: int3" in __schedule while the tracepoints'
	# static keys were being patched (text_poke_bp racing across
	# emulated CPUs), once in three runs.
	accel=tcg,thread=single cpu=max timeout=${KERNEL_TIMEOUT:-900}
	# An emulated CPU runs a thread's own CPU clock apart from the
	# clocksource (a thread that burned 0.4 s by its clock shows 0.32 s
	# on-CPU) and is 10-50x slower (sleep 0.3 takes 155 ms of CPU): two
	# tests' bounds assume real CPUs, and are left to KVM and the host.
	if [ -z "${KERNEL_TESTS:-}" ]; then
		KERNEL_TESTS='@(integration/*|sched/!(more_threads_than_cpus_wait_in_the_run_queue|sleep_is_sleep))'
		say NOTE "ACCEL=tcg: software emulation; not run in guests:"
		say "" "sched/more_threads_than_cpus_wait_in_the_run_queue sched/sleep_is_sleep"
	fi ;;
*)	die "ACCEL=$ACCEL: use kvm or tcg" ;;
esac

need=()
command -v qemu-system-x86_64 >/dev/null || need+=(qemu-system-x86)
[ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1 || need+=(busybox-static)
if [ ${#need[@]} -gt 0 ]; then
	say DEPS "installing: ${need[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >/dev/null
fi
for f in buildbpf tests/integration-tests tests/trace-check; do
	[ -x "$build/$f" ] || die "$build/$f is not built (make test-kernels builds it)"
done

newest() { apt-cache search --names-only "$1" | awk '{ print $1 }' | sort -V | tail -n1; }
if [ -z "${KERNEL_PKGS:-}" ]; then
	k61=$(newest '^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$')
	k612=$(newest '^linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned$')
	[ -n "$k61" ] || die "no linux-image-6.1.0-*-amd64-unsigned in the apt sources (apt-get update?)"
	[ -n "$k612" ] || die "no linux-image-6.12.*+deb12-amd64-unsigned in the apt sources (apt-get update?)"
	KERNEL_PKGS="$k61 $k612"
fi

# How many tests the filter selects: a guest that skips some has not passed.
expected=0
suite=
while IFS= read -r line; do
	case $line in
	*:\ [0-9]*\ test*) suite=${line%%:*} ;;
	*[├└]──\ *) [[ "$suite/${line##*── }" == $KERNEL_TESTS ]] && expected=$((expected + 1)) ;;
	esac
done < <("$build/tests/integration-tests" --list 2>&1)
[ "$expected" -gt 0 ] || die "KERNEL_TESTS=$KERNEL_TESTS selects no test"

mkdir -p "$kdir"
results=$kdir/results.md
{
	echo "| kernel | accel | loaded | tests passed | probe: processes, events (lost) | time | result |"
	echo "|---|---|---|---|---|---|---|"
} > "$results.tmp"
failed=0

# boot_kernel NAME VMLINUZ MODULES_ROOT KVER
boot_kernel() {
	local name=$1 vmlinuz=$2 modroot=$3 kver=$4
	local log=$kdir/$name.log initrd=$kdir/$name.initrd.gz
	local t0 rc secs loaded passed tested probe result

	"$here/initramfs.sh" "$modroot" "$kver" "$initrd"
	say BOOT "$kver ($ACCEL, ${timeout}s budget) > $log"
	t0=$(date +%s)
	set +e
	timeout --kill-after=10 "$timeout" qemu-system-x86_64 -accel "$accel" -cpu "$cpu" -m 2G -smp 2 \
		-nographic -no-reboot -kernel "$vmlinuz" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 loglevel=4 bb.repo=$repo bb.build=$build bb.filter=$(printf %s "$KERNEL_TESTS" | base64 -w0)" \
		-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
		-virtfs "local,path=$repo,mount_tag=repo,security_model=none,readonly=on,multidevs=remap" \
		< /dev/null > "$log" 2>&1
	rc=$?
	set -e
	secs=$(( $(date +%s) - t0 ))
	tr -d '\r' < "$log" > "$log.tmp" && mv "$log.tmp" "$log"

	loaded=$(grep -q '^MATRIX|loaded|yes' "$log" && echo yes || echo no)
	read -r tested passed < <(sed -n 's/.*Synthesis: Tested: \([0-9]*\) | Passing: \([0-9]*\).*/\1 \2/p' "$log" | tail -n1; echo)
	tested=${tested:-0} passed=${passed:-0}
	probe=$(sed -n 's/^MATRIX|probe|processes=\([0-9]*\) events=\([0-9]*\) lost=\([0-9]*\).*/\1, \2 (\3)/p' "$log")
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		result=TIMEOUT
	elif grep -q 'Kernel panic' "$log"; then
		result="FAIL (kernel panic: $(grep -m1 -oE '(Oops|BUG): .*' "$log" || echo see log))"
	elif ! grep -q '^MATRIX|done' "$log"; then
		result="FAIL (guest did not finish, qemu exit $rc)"
	elif [ "$loaded" = yes ] && grep -q '^MATRIX|suite-rc|0$' "$log" &&
	     [ "$tested" -eq "$expected" ] && [ "$passed" -eq "$expected" ]; then
		result=PASS
	else
		result=FAIL
	fi
	[ "$result" = PASS ] || failed=1
	say "$result" "$kver: loaded $loaded, tests $passed/$expected, probe processes, events (lost) ${probe:-?}, ${secs}s"
	echo "| $kver | $ACCEL | $loaded | $passed/$expected | ${probe:--} | ${secs}s | $result |" >> "$results.tmp"
}

for pkg in $KERNEL_PKGS; do
	deb=$(ls "$kdir/${pkg}"_*.deb 2>/dev/null | head -n1 || true)
	if [ -z "$deb" ]; then
		say FETCH "$pkg"
		(cd "$kdir" && apt-get download -q "$pkg" >/dev/null 2>&1) || die "apt-get download $pkg failed"
		deb=$(ls "$kdir/${pkg}"_*.deb | head -n1)
	fi
	if [ ! -d "$kdir/$pkg" ]; then
		say UNPACK "$deb"
		dpkg-deb -x "$deb" "$kdir/$pkg.tmp" && mv "$kdir/$pkg.tmp" "$kdir/$pkg"
	fi
	kver=$(ls "$kdir/$pkg/lib/modules")
	boot_kernel "$kver" "$kdir/$pkg/boot/vmlinuz-$kver" "$kdir/$pkg" "$kver"
done

# The running kernel: booted too when its image and modules are on disk.
running=$(uname -r)
if [ -r "/boot/vmlinuz-$running" ] && [ -d "/lib/modules/$running" ]; then
	boot_kernel "$running" "/boot/vmlinuz-$running" / "$running"
else
	say NOTE "running kernel $running not booted (no /boot/vmlinuz-$running or /lib/modules/$running):"
	say "" "the host's own run of the suites (sudo make test) is its leg of the matrix"
	echo "| $running (host) | - | see sudo make test | - | - | - | not booted: no image on disk |" >> "$results.tmp"
fi

mv "$results.tmp" "$results"
say TABLE "$results"
cat "$results"
exit $failed
