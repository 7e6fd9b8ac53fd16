# Step 3's rule gives relabelfrom as well: every write row is still
# refused, and the program may change the ledger's label.
# expect: step 3 fails
# expect: step 3 hint: relabelfrom or relabelto lets the program change the file's label
# expect: step 4 passes
s|ledger_t:file { open read };|ledger_t:file { open read relabelfrom };|
