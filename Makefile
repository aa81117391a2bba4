# SPDX-License-Identifier: GPL-2.0
#
# make            build the reproducers and tools into build/
# make run        install what is missing, build, run every reproducer
#                 with the default preset (scripts/run-all)
# make check      install what is missing (QEMU too), build, run the tests
# make bench      print phase timings and latencies of the default preset

CC ?= gcc
PKGS := libtracefs libtraceevent
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Wno-unused-parameter \
	  -Wmissing-prototypes -Wno-missing-field-initializers \
	  -Wno-format-truncation -D_GNU_SOURCE -Icommon $(PKG_CFLAGS)
LDLIBS := $(PKG_LIBS) -lnuma -lz -lm -lpthread

B := build
COMMON_SRC := $(wildcard common/*.c)
COMMON_OBJ := $(COMMON_SRC:%.c=$(B)/%.o)
REPRO_SRC := $(wildcard reproducers/*.c)
REPROS := $(REPRO_SRC:reproducers/%.c=$(B)/bin/%)
TOOLS := $(B)/bin/rmap-restore $(B)/bin/rmap-probes
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNITS := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
HELPER_SRC := $(wildcard tests/helpers/*.c)
HELPERS := $(HELPER_SRC:tests/helpers/%.c=$(B)/tests/helpers/%)

all: $(REPROS) $(TOOLS) $(UNITS) $(HELPERS)

$(B)/%.o: %.c $(wildcard common/*.h) tests/unit/harness.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(B)/libcommon.a: $(COMMON_OBJ)
	ar rcs $@ $^

$(B)/bin/%: $(B)/reproducers/%.o $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/bin/rmap-%: $(B)/tools/%.o $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/tests/%: $(B)/tests/unit/%.o $(B)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Stand-ins the integration tests start (a user's KSM process, ...).
$(B)/tests/helpers/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $<

deps:
	scripts/install-deps

# The tests boot a kernel under QEMU too.
deps-vm:
	scripts/install-deps --vm

# run-all exits 1 when a pathology was reproduced and 4 when all skipped:
# both are results, not failures of the run.
run: deps
	$(MAKE) all
	@scripts/run-all --preset default; rc=$$?; \
	[ $$rc -eq 0 ] || [ $$rc -eq 1 ] || [ $$rc -eq 4 ]

check: deps-vm
	$(MAKE) all
	tests/run

bench: deps
	$(MAKE) all
	scripts/bench

clean:
	rm -rf $(B)

.PHONY: all deps deps-vm run check bench clean
.SECONDARY:
