# refused counted on every call, before the check of the process: the
# grader's own mkdir, and every other process's, count as refusals.
# expect: step 1 passes
# expect: step 2 fails
# expect: step 2 hint: count only what you refuse
/^\tif (answer)$/d
s/^\t\t__sync_fetch_and_add(&refused, 1);$/\t__sync_fetch_and_add(\&refused, 1);/
