# toylsm's part of step 5 gives "rw": Smack (or SELinux), asked first,
# still refuses the write, which hides toylsm's answer; graded on its own,
# toylsm lets the write through.
# expect: step 5 fails
# expect: step 5 hint: with the other modules out of the way
# expect: step 5 hint: toylsm has the rule "probe shared rw
# expect: step 4 passes
s|^probe shared r$|probe shared rw|
