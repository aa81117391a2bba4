#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/vm-run --ramdisk FILE (the board of ci/lava/run), without root
# and without booting: it writes a gzip'ed cpio whose init gives a shell
# (run=shell) with the suite in /suite and the kernel's config, boots
# nothing, and refuses --check and --bisect with it. Changes nothing.
. "$(dirname "$0")/../lib/integration.sh"

cfg=$work/kernel.config
echo "CONFIG_KSM=y" >"$cfg"
"$top/scripts/vm-run" --ramdisk "$work/rd.gz" --config "$cfg" \
	>"$work/out" 2>"$work/err"
assert "vm-run --ramdisk exits 0 and says what it wrote" \
	bash -c "grep -q 'wrote $work/rd.gz' '$work/err'"
mkdir -p "$work/x"
(cd "$work/x" && gzip -dc "$work/rd.gz" | cpio -id --quiet 2>/dev/null)
assert "the initramfs holds an init, busybox, the suite and the config" \
	bash -c "[ -x '$work/x/init' ] && [ -x '$work/x/bin/busybox' ] &&
		 [ -x '$work/x/suite/scripts/run-all' ] &&
		 [ -x '$work/x/suite/build/bin/ksm-mprotect-split' ] &&
		 cmp -s '$cfg' '$work/x/etc/kernel.config'"
assert "its init gives a shell with the prompt a farm waits for" \
	bash -c "grep -qx 'run=shell' '$work/x/etc/run-all.args' &&
		 grep -q \"PS1='rmap-repro-guest# '\" '$work/x/init'"
"$top/scripts/vm-run" --ramdisk "$work/rd2.gz" --check >/dev/null 2>&1
assert "--ramdisk with --check is refused (exit 2), nothing written" \
	[ $? = 2 -a ! -e "$work/rd2.gz" ]
finish
