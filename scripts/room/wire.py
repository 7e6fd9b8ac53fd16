"""What make join, make lab's sender and make room say to each other, and
how each side knows it talks to the other (scripts/room/).  Imported by
client.py, server.py and store.py; nothing here touches a file or the
network.

The room has a key (store.py keeps it in its database).  Three secrets
come from it or beside it:

  the room's token     16 letters and digits, shown on the instructor's
                       screen: whoever has it may join, once per name
  an attendee's secret HMAC(key, "attendee", id, gen): given to the
                       laptop that joined the name, and to nobody else;
                       every post is signed with it, so only that laptop
                       posts under the name (gen: a new one after the
                       instructor removes the name)
  the instructor's token  for the admin requests (admin.py reads it from
                       the database, never from a command line)

and one identity: the room's id, HMAC(key, "room-id")[:16].

    POST /api/join     {"v": 2, "name": N, "nonce": X, "proof": mac(token, "join", X, N)}
                       200 {"ok": true, "room": ID, "attendee": A, "name": N,
                            "secret": S, "proof": mac(token, "joined", X, ID, A, S)}
                       or a refusal with "proof": mac(token, "refused", X, ID, message)
    POST /api/result   a record (record.py); headers X-Kit-Attendee: A,
                       X-Kit-Signature: mac(secret, "post", body)
                       200 {"ok": true, "room": ID, "id": R, "message": ...,
                            "ack": mac(secret, "ack", ID, R)}
                       400/413 {"ok": false, "room": ID, "id": R, "message": M,
                            "refused": mac(secret, "refused", ID, R, M)}
    GET  /api/ping     headers X-Kit-Attendee, X-Kit-Nonce: X,
                       X-Kit-Signature: mac(secret, "ping", X)
                       200 {"ok": true, "room": ID, "name": N, "pong": mac(secret, "pong", ID, X)}

Only an answer that is JSON (application/json) and carries the room's id
and the right MAC counts: a captive portal, another web server or a
mistyped ROOM= that answers 200 acknowledges nothing, and refuses
nothing for good either (the sender tries again).  The token itself never
crosses the network (the join proves it with a MAC); the room is plain
HTTP, so whoever can read the room's network can read the posts and the
secret a join returns: the secrets keep one attendee from posting as
another, not an eavesdropper out.
"""
import hashlib
import hmac
import json
import re
import secrets

VERSION = 2
ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'    # no 0/o, 1/l/i
TOKEN_LEN = 16
NONCE = re.compile(r'^[0-9a-f]{32}$')
MAC = re.compile(r'^[0-9a-f]{64}$')
ROOM_ID = re.compile(r'^[0-9a-f]{16}$')


def mac(key, *parts):
    """HMAC-SHA256 of PARTS (str or bytes), NUL-separated, as hex."""
    if isinstance(key, str):
        key = key.encode()
    msg = b'\0'.join(p if isinstance(p, bytes) else str(p).encode('utf-8') for p in parts)
    return hmac.new(key, msg, hashlib.sha256).hexdigest()


def same(a, b):
    """A MAC compared in constant time; False for anything not a string."""
    return isinstance(a, str) and isinstance(b, str) and hmac.compare_digest(a.encode(), b.encode())


def new_token():
    """The room's token: 16 of ALPHABET, shown in groups of four."""
    t = ''.join(secrets.choice(ALPHABET) for _ in range(TOKEN_LEN))
    return '-'.join(t[i:i + 4] for i in range(0, TOKEN_LEN, 4))


def normal_token(text):
    """The token as typed (any case, spaces or dashes between groups) in
    its one form, or None if it cannot be one."""
    t = re.sub(r'[\s-]', '', text).lower()
    return t if len(t) == TOKEN_LEN and all(c in ALPHABET for c in t) else None


def room_id(key):
    return mac(key, 'room-id')[:16]


def attendee_secret(key, who, gen):
    return mac(key, 'attendee', who, gen)


def nonce():
    return secrets.token_hex(16)


def body(obj):
    """The bytes of a JSON answer or request (UTF-8, one line)."""
    return (json.dumps(obj, ensure_ascii=False, separators=(',', ':')) + '\n').encode('utf-8')
