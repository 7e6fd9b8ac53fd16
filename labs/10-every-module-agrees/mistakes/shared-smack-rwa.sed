# Smack's part of step 5 gives "rwa": Smack, asked first, lets the write
# through, and toylsm refuses it instead, where the table wants Smack to.
# expect: step 5 fails
# expect: step 5 hint: smack was asked before toylsm and said yes: it must say no
# expect: step 5 hint: Smack has the rule "Probe Shared rwa
# expect: step 2 passes
s|^Probe Shared r$|Probe Shared rwa|
