# A mistake a port makes, for tests/host/lab-hints.sh: lab 2's "%s" of
# the value.  On the kit every value had its NUL inside ctx_len; mainline
# reports an unset SELinux attribute as an entry with ctx_len 0, and "%s"
# reads past it (here: what the previous attribute's buffer left in the
# heap).  The hint must name the empty entry from the lines printed.
#
# expect: step 6 hint: has ctx_len 0: an empty value
/^\t\t\tint n = strnlen((const char \*)ctx->ctx, ctx->ctx_len);$/{N;d}
s/fprintf(out, "%llu %s %\.\*s\\n", (unsigned long long)ctx->id,/fprintf(out, "%llu %s %s\\n", (unsigned long long)ctx->id,/
s/name ? name : "?", n, (const char \*)ctx->ctx);/name ? name : "?", (const char *)ctx->ctx);/
