# A stand-in for Kbuild, the Makefile of the fake kernel tree of
# tests/host/kernel.sh (kbuildcase): make -C TREE O=OUT [tinyconfig |
# olddefconfig | bzImage headers], as scripts/kernel/kernel.sh runs it.  Like
# Kbuild, it rebuilds by mtime: "bzImage" is the tree's sources and the
# .config in one file, remade only when one of them is newer.  Each run
# that asks for bzImage adds a line to OUT/kbuild-runs, so that a test
# can tell whether kernel.sh ran Kbuild at all.  security/toylsm/extra/
# is built only when the .config asks for it, as the kit's toylsm does.
# Like Kbuild's, its output folder names the tree: a "source" link and a
# .cmd file (the kernel cache renames them in another clone's copy).
# As Kbuild, it does not read Documentation/, and in drivers/, a folder it
# descends into (drivers/built-in.a) but builds nothing of, only the
# Makefile; its .cmd file lists the sources it read, as fixdep's do, and
# include/config/auto.conf.cmd the Kconfig files, as Kconfig's does.
# As Kbuild's, it names the tree's version: scripts/kernel/tree.sh reads
# it (the series' base, 6.1.192) before it applies the series.
VERSION = 6
PATCHLEVEL = 1
SUBLEVEL = 192
O ?= .
srcs := $(shell find $(CURDIR) -name .git -prune -o -path $(CURDIR)/Documentation -prune -o -type f \
	! -path '$(CURDIR)/drivers/*.c' -print | LC_ALL=C sort)
ifeq ($(shell grep -x CONFIG_SECURITY_TOYLSM_EXTRA=y $(O)/.config 2>/dev/null),)
srcs := $(filter-out $(CURDIR)/security/toylsm/extra/%,$(srcs))
endif
ifneq ($(filter bzImage,$(MAKECMDGOALS)),)
$(shell echo run >>$(O)/kbuild-runs)
endif
# Like Kbuild (its .cmd files, if_changed), an object whose compiler
# command line differs from the one it was built with is built again:
# CC is gcc unless make's command line says otherwise.
ifeq ($(origin CC),default)
CC := gcc
endif
ifneq ($(filter bzImage,$(MAKECMDGOALS)),)
ifneq ($(shell cat $(O)/.cc-cmd 2>/dev/null),$(CC))
$(shell echo '$(CC)' >$(O)/.cc-cmd)
.PHONY: $(O)/arch/x86/boot/bzImage
endif
endif

.PHONY: tinyconfig olddefconfig bzImage headers
tinyconfig:
	@mkdir -p $(O)
	@echo '# stand-in tinyconfig' >$(O)/.config
olddefconfig: ;
bzImage: $(O)/arch/x86/boot/bzImage
headers: $(O)/usr/include/linux/types.h

$(O)/arch/x86/boot/bzImage: $(srcs) $(O)/.config
	@echo '  CC      stand-in'
	@mkdir -p $(@D)
	@cat $^ >$@
	@cp $@ $(O)/vmlinux
	@echo '$(KCFLAGS)' >$(O)/.kcflags
	@ln -sfn $(CURDIR) $(O)/source
	@mkdir -p $(O)/drivers && : >$(O)/drivers/built-in.a
	@{ echo 'deps_bzImage := \'; for f in $(filter-out %/Makefile %/Kconfig,$(srcs)); do echo "  $$f \\"; done; echo; } \
		>$(O)/.bzImage.cmd
	@mkdir -p $(O)/include/config && { echo 'deps_config := \'; \
		for f in $(filter %/Kconfig,$(srcs)); do printf '\t%s \\\n' "$${f#$(CURDIR)/}"; done; echo; } \
		>$(O)/include/config/auto.conf.cmd
$(O)/usr/include/linux/types.h:
	@mkdir -p $(@D)
	@echo '/* stand-in */' >$@
