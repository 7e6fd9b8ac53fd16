# Scenario 6 fixed with rt: t lets probe take the label diary, and then
# equal labels pass everything, a write of the diary too.
# expect: step 6 fails
# expect: step 6 hint: t (transition) lets probe take the label diary
s|^probe diary r$|probe diary rt|
