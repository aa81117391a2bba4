# SPDX-License-Identifier: GPL-2.0
#
# make            build the reproducers and tools into build/
# make run        install what is missing, build, run every reproducer
#                 with the default preset (scripts/run-all)
# make check      install what is missing (QEMU too), build, run the tests
# make bench      print phase timings and latencies of the default preset
# make install INSTALL_PATH=DIR
#                 a kselftest-style collection in DIR: run_tests.sh,
#                 settings, the rmap-repro runner, binaries, presets
# make dist       build/rmap-repro-VERSION.tar.gz, with its VERSION

CC ?= gcc
PKGS := libtracefs libtraceevent
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Wno-unused-parameter \
	  -Wmissing-prototypes -Wno-missing-field-initializers \
	  -Wno-format-truncation -D_GNU_SOURCE -Icommon $(PKG_CFLAGS)
# Each object's header dependencies, written by the compiler as it builds
# (-MMD), with an empty rule per header (-MP) so that a header removed or
# moved does not break the next build.
DEPFLAGS = -MMD -MP
LDLIBS := $(PKG_LIBS) -lnuma -lz -lm -lpthread

B := build
# The suite's version for the reports: a release tarball's VERSION file,
# else git describe.
VERSION := $(shell cat VERSION 2>/dev/null || \
	     git describe --always --dirty --tags 2>/dev/null || echo unknown)
CFLAGS += -I$(B)
# common/ has one folder per layer (common/LAYERS, docs/hacking.md).
# common/lib/hooks.c is built twice (common/lib/hooks.h): without the
# test hooks for build/bin, the binaries a user runs, and with them
# (RR_TEST_BUILD) for build/test/bin and the unit tests.
HOOKS := common/lib/hooks.c
COMMON_SRC := $(filter-out $(HOOKS),$(wildcard common/*/*.c))
COMMON_OBJ := $(COMMON_SRC:%.c=$(B)/%.o)
USER_HOOKS := $(B)/common/lib/hooks.o
TEST_HOOKS := $(B)/test/hooks.o
REPRO_SRC := $(wildcard reproducers/*.c)
REPROS := $(REPRO_SRC:reproducers/%.c=$(B)/bin/%)
TOOLS := $(B)/bin/rmap-restore $(B)/bin/rmap-probes $(B)/bin/rmap-stat \
	 $(B)/bin/rmap-trust
TEST_BINS := $(patsubst $(B)/bin/%,$(B)/test/bin/%,$(REPROS) $(TOOLS))
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNITS := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
HELPER_SRC := $(wildcard tests/helpers/*.c)
HELPERS := $(HELPER_SRC:tests/helpers/%.c=$(B)/tests/helpers/%)
# test tools built on the suite's library (full-result: every JSON key)
TTOOL_SRC := $(wildcard tests/tools/*.c)
TTOOLS := $(TTOOL_SRC:tests/tools/%.c=$(B)/tests/tools/%)

# kbuild's quiet build: one "  CC      file" line per step, the commands
# themselves with make V=1, nothing at all with make -s.
ifeq ($(V),1)
Q :=
msg = @:
else ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
Q := @
msg = @:
else
Q := @
msg = @printf '  %-7s %s\n'
endif

all: $(REPROS) $(TOOLS) $(TEST_BINS) $(UNITS) $(HELPERS) $(TTOOLS)

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(msg) CC $<
	$(Q)$(CC) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

# Rewritten only when the version changes, so that a build is not redone.
$(B)/version.h: FORCE
	@mkdir -p $(B)
	@echo '#define RR_VERSION "$(VERSION)"' >$@.tmp; \
	cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
# Generated: named here, since no .d file exists before the first build.
$(B)/common/mm/sysinfo.o: $(B)/version.h

# Made afresh: ar would keep the members of files since moved or removed.
$(B)/libcommon.a: $(COMMON_OBJ)
	@rm -f $@
	$(msg) AR $@
	$(Q)ar rcs $@ $^

$(TEST_HOOKS): $(HOOKS)
	@mkdir -p $(dir $@)
	$(msg) CC "$< (test hooks)"
	$(Q)$(CC) $(CFLAGS) -DRR_TEST_BUILD $(DEPFLAGS) -c -o $@ $<

$(B)/bin/%: $(B)/reproducers/%.o $(USER_HOOKS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(msg) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/bin/rmap-%: $(B)/tools/%.o $(USER_HOOKS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(msg) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The same programs with the test hooks: what the tests run.
$(B)/test/bin/%: $(B)/reproducers/%.o $(TEST_HOOKS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(msg) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/test/bin/rmap-%: $(B)/tools/%.o $(TEST_HOOKS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(msg) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/tests/%: $(B)/tests/unit/%.o $(TEST_HOOKS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(msg) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/tests/tools/%: $(B)/tests/tools/%.o $(TEST_HOOKS) $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(msg) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Stand-ins the integration tests start (a user's KSM process, ...).
$(B)/tests/helpers/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(msg) CC $<
	$(Q)$(CC) $(CFLAGS) $(DEPFLAGS) -o $@ $<

# gnuplot too: a run draws its pictures by default (scripts/plot).
deps:
	scripts/install-deps --plot

# The tests boot a kernel under QEMU too, draw plots, and read the KTAP
# with the kernel's own parser (kunit.py).
deps-vm:
	scripts/install-deps --vm --plot --ci

# The builds use every CPU: compiling is the part of make check nothing
# else overlaps (40 s one file at a time on the CI's two CPUs, 23 s
# with -j2, 2026-12-08).
NPROC := $(shell nproc 2>/dev/null || echo 1)

# run-all exits 1 when a pathology was reproduced and 4 when all skipped:
# both are results, not failures of the run.
run: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all
	@scripts/run-all --preset default; rc=$$?; \
	[ $$rc -eq 0 ] || [ $$rc -eq 1 ] || [ $$rc -eq 4 ]

check: deps-vm
	$(MAKE) -j$(NPROC) all
	tests/run

# The fault and kill matrices, soak and load (tests/chaos): longer than
# make check, which runs their quick share (tests/integration/chaos.sh).
chaos: deps-vm
	$(MAKE) -j$(NPROC) all
	tests/run --chaos

bench: deps
	$(MAKE) -j$(NPROC) all
	scripts/bench

INSTALL_PATH ?= $(B)/install
# The destination reaches the shell through the environment, quoted
# there: a path with blanks or a shell's characters is one word.
install: export RR_DEST = $(INSTALL_PATH)
install: all
	@test -n "$$RR_DEST"
	mkdir -p "$$RR_DEST/build/bin" "$$RR_DEST/scripts/lib" \
		"$$RR_DEST/configs"
	cp $(REPROS) $(TOOLS) "$$RR_DEST/build/bin/"
	cp scripts/run-all scripts/restore scripts/compare "$$RR_DEST/scripts/"
	cp scripts/lib/* "$$RR_DEST/scripts/lib/"
	cp configs/*.preset configs/*.times configs/kernel.config "$$RR_DEST/configs/"
	cp tools/install/run_tests.sh tools/install/rmap-repro \
		tools/install/settings "$$RR_DEST/"
	echo '$(VERSION)' >"$$RR_DEST/VERSION"
	@echo "installed rmap-repro $(VERSION) in $$RR_DEST"

DIST := rmap-repro-$(VERSION)
dist:
	@mkdir -p $(B)/dist/$(DIST)
	git archive --format=tar --prefix=$(DIST)/ HEAD >$(B)/$(DIST).tar
	echo '$(VERSION)' >$(B)/dist/$(DIST)/VERSION
	tar -rf $(B)/$(DIST).tar -C $(B)/dist $(DIST)/VERSION
	gzip -f $(B)/$(DIST).tar
	@rm -rf $(B)/dist
	@echo "wrote $(B)/$(DIST).tar.gz"

clean:
	rm -rf $(B)

FORCE:

-include $(shell find $(B) -name '*.d' 2>/dev/null)

.PHONY: FORCE all deps deps-vm run check chaos bench clean install dist
.SECONDARY:
