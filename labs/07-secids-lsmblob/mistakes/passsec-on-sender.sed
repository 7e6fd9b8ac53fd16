# A mistake a learner made, for tests/host/lab-hints.sh: step 2 sets
# SO_PASSSEC on the sending socket; no SCM_SECURITY comes (ENODATA).
#
# expect: step 1 passes
# expect: step 2 hint: SO_PASSSEC must be set on the receiving socket
s/setsockopt(sv\[1\], SOL_SOCKET, SO_PASSSEC,/setsockopt(sv[0], SOL_SOCKET, SO_PASSSEC,/
