# Step 4's rule gives x as well: every write row is still refused by
# toylsm, and x is more than a read needs.
# expect: step 4 fails
# expect: step 4 hint: x (execute) beyond it
# expect: step 3 passes
s|^probe diary r$|probe diary rx|
