# The kit's attribute bits in step 2 (as in kit-attr-bits.sed) and step 6
# printing lab_attr_name()'s result without a NULL guard: gcc proves the
# %s argument NULL for every attribute of step 6's loop (100 to 105) and
# refuses the file (-Werror=format-overflow), an error in step 6 whose
# cause is step 2. The kit says so under the compiler's message.
#
# expect: compile: directive argument is null [-Werror=format-overflow
# expect: compile: kit: hint: gcc proved that a %s argument of the line it names is NULL
# expect: compile: If that is lab_attr_name() (step 2) in step 6's loop, its cases are not mainline's LSM_ATTR_* (100 to 105
s/^\tcase LSM_ATTR_CURRENT:/\tcase 0x0001:/
s/^\tcase LSM_ATTR_EXEC:/\tcase 0x0002:/
s/^\tcase LSM_ATTR_FSCREATE:/\tcase 0x0004:/
s/^\tcase LSM_ATTR_KEYCREATE:/\tcase 0x0008:/
s/^\tcase LSM_ATTR_PREV:/\tcase 0x0010:/
s/^\tcase LSM_ATTR_SOCKCREATE:/\tcase 0x0020:/
s/^\(\t*\)name ? name : "?", n, (const char \*)ctx->ctx);/\1name, n, (const char *)ctx->ctx);/
