# A mistake a port makes, for tests/host/lab-hints.sh: the probe names
# the module, but the buffer of the second call does not (calloc: ctx->id
# 0), and the kernel answers EINVAL.  The hint must say which ctx->id the
# code passed.
#
# expect: step 5 hint: ctx->id was 0 (LSM_ID_UNDEF) when you called
/^\tbuf->id = id;$/d
