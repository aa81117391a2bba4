/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pressure stall information for CPUs (/proc/pressure/cpu, CONFIG_PSI):
 * how long some task on the machine waited for a CPU. A run judged on a
 * busy host can find a walk long only because its task was taken off
 * the CPU inside the measured interval, so each run says how busy the
 * host was (docs/results.md, "A busy host").
 */
#ifndef RR_MM_PSI_H
#define RR_MM_PSI_H

/*
 * The "some" line's total: microseconds in which at least one task
 * waited for a CPU, since boot. 0, or -errno (-ENOENT without PSI,
 * -EOPNOTSUPP when the kernel has it off: psi=0).
 */
int rr_psi_cpu_some_us(unsigned long long *us);

#endif
