# "read" for Smack's access: the kernel reads r, stops at the e and loads
# "Probe Inbox r" without a word; the kit refuses the line before boot.
# expect: compile: /smack.rules:11: error: "Probe Inbox read": e is not a Smack access letter
s|^Probe Inbox r$|Probe Inbox read|
