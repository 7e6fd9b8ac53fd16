# target_tgid declared without "const volatile": clang and bpftool take
# it (a plain global, in the skeleton's bss), but the loader sets it in
# the skeleton's rodata before the load. The kit names the declaration in
# the attendee's file, not an error in its own loader.c.
# expect: compile: the loader needs 'const volatile __u32 target_tgid;'
s/^const volatile __u32 target_tgid;$/__u32 target_tgid;/
