# SPDX-License-Identifier: GPL-2.0
#
# The project's test kernels (../shared/kernels beside the checkout, or
# the RMAP_REPRO_TEST_KERNEL* variables), for the vm tier: sourced by
# integration.sh and by vm-shared-boot. Needs $top.

# test_kernel unfixed|fixed: the bzImage, from RMAP_REPRO_TEST_KERNEL or
# RMAP_REPRO_TEST_KERNEL_FIXED, else ../shared/kernels beside the
# checkout; nothing when absent. Their config is the same file.
test_kernel() {
	local var=RMAP_REPRO_TEST_KERNEL name=linux-6.12-rmap-tp d

	if [ "$1" = fixed ]; then
		var=RMAP_REPRO_TEST_KERNEL_FIXED
		name=linux-6.12-rmap-tp-ksmfix
	elif [ "$1" = renamed ]; then
		var=RMAP_REPRO_TEST_KERNEL_RENAMED
		name=linux-6.12-renamed
	fi
	if [ -n "${!var:-}" ]; then
		echo "${!var}"
		return
	fi
	for d in "$top/../shared/kernels" /work/shared/kernels; do
		[ -r "$d/$name.bzImage" ] && { echo "$d/$name.bzImage"; return; }
	done
}

test_kernel_config() {
	local c="${1%.bzImage}.config"

	[ -r "$c" ] || c="$(dirname "$1")/linux-6.12-rmap-tp.config"
	echo "$c"
}

# Can this machine boot a test kernel? (no: the program skips)
vm_possible() {
	[ -n "$(test_kernel unfixed)" ] && [ -n "$(test_kernel fixed)" ] &&
		command -v qemu-system-x86_64 >/dev/null
}
