# The last rule of the profile without its comma: apparmor_parser notices
# only at the } two lines below ("at line 27: syntax error, unexpected
# TOK_CLOSE"); the kit names the learner's line 25 and the cause.
# expect: compile: /apparmor/probe:25: error: "  /tmp/lab10/shared r" has no comma at its end
s|^  /tmp/lab10/shared r,$|  /tmp/lab10/shared r|
