# A mistake a port makes, for tests/host/lab-hints.sh: lab 2's walk, value
# start + ctx_len.  On the kit ctx_len was padded to 8; mainline's is the
# value's own length, and len is the whole entry.  The hint must name the
# kit's rule from the address the code returned.  Step 6 cannot catch it:
# in 6.12 only SELinux, Smack and AppArmor have attributes, and they are
# exclusive, so no call returns more than one entry and the walk is never
# taken; step 4's synthetic buffer is what tests it.
#
# expect: step 4 hint: the kit's rule, where ctx_len was padded to 8
# expect: step 6 passes
s/return (const struct lsm_ctx \*)((const char \*)ctx + ctx->len);/return (const struct lsm_ctx *)(ctx->ctx + ctx->ctx_len);/
