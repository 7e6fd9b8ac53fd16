# A mistake a port makes, for tests/host/lab-hints.sh: the name table
# keeps the kit's LSM IDs (lab 1 printed them: 32 capability, 33 selinux,
# 34 smack ...).  With LSM_FLAG_SINGLE no module has such an ID and the
# kernel answers EOPNOTSUPP.  The hint must name the ID the code put in
# ctx->id and mainline's number for that module.
#
# expect: step 5 hint: you asked for ID 34: that is the kit's number for smack
# expect: step 5 hint: you asked for ID 33: that is the kit's number for selinux
s/{ "capability", LSM_ID_CAPABILITY }, { "selinux", LSM_ID_SELINUX },/{ "capability", 32 }, { "selinux", 33 },/
s/{ "smack", LSM_ID_SMACK }, { "tomoyo", LSM_ID_TOMOYO },/{ "smack", 34 }, { "tomoyo", 35 },/
s/{ "apparmor", LSM_ID_APPARMOR }, { "yama", LSM_ID_YAMA },/{ "apparmor", 37 }, { "yama", 38 },/
s/{ "landlock", LSM_ID_LANDLOCK }, { "ima", LSM_ID_IMA },/{ "landlock", 43 }, { "ima", 36 },/
