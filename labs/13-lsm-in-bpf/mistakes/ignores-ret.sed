# A program that ignores ret, the answer of the programs attached before
# it: on 6.1 (x86-64) it must still pass, because it cannot be told
# apart. The BPF trampoline runs the programs of a hook one after the
# other and jumps out at the first that returns non-zero
# (invoke_bpf_mod_ret() in arch/x86/net/bpf_jit_comp.c), so a program
# only ever runs while ret is 0. Keeping "if (ret) return ret;" costs
# nothing and is what Documentation/bpf/prog_lsm.rst asks; this fixture
# keeps the grader from claiming a difference the kernel does not make.
# expect: step 1 passes
# expect: step 2 passes
/^\tif (ret)$/,+1d
