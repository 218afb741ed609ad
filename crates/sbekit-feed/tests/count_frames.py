"""Independent count of the SBE messages in a capture, for the tests: no sbekit code.

usage: count_frames.py PROFILE CAPTURE

Reads a classic pcap (little-endian, µs or ns), Ethernet (with 802.1Q tags), IPv4, UDP or TCP,
then the profile's framing as the venues document it, and prints JSON:
{"messages": {"schema/template/version": n, ...}, "packets": n, "unchained": [packet index...]}
where a packet is "unchained" when its message lengths do not end exactly at its end.
"""
import json
import struct
import sys

profile, path = sys.argv[1], sys.argv[2]
data = open(path, "rb").read()
magic = data[:4]
assert magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"), "only little-endian pcap here"
link = struct.unpack_from("<I", data, 20)[0]
assert link == 1, "Ethernet only"

counts, packets, unchained = {}, 0, []
pos, index = 24, 0
while pos + 16 <= len(data):
    incl = struct.unpack_from("<I", data, pos + 8)[0]
    frame = data[pos + 16 : pos + 16 + incl]
    pos += 16 + incl
    at = 12
    ethertype = struct.unpack_from(">H", frame, at)[0]
    while ethertype in (0x8100, 0x88A8):
        at += 4
        ethertype = struct.unpack_from(">H", frame, at)[0]
    assert ethertype == 0x0800
    ip = at + 2
    ihl = (frame[ip] & 15) * 4
    total = struct.unpack_from(">H", frame, ip + 2)[0]
    proto = frame[ip + 9]
    l4 = ip + ihl
    if proto == 17:
        payload = frame[l4 + 8 : ip + total]
    elif proto == 6:
        payload = frame[l4 + (frame[l4 + 12] >> 4) * 4 : ip + total]
    else:
        index += 1
        continue
    if not payload:
        index += 1
        continue
    packets += 1
    # (packet header size, bytes of framing before the SBE header, length counts from where)
    if profile == "cme-mdp3":
        head = 14 if payload[:2] == b"\xfe\xca" else 12
        before = 2
    elif profile == "b3-umdf":
        head, before = 16, 4
    elif profile == "coinbase-derivatives":
        head, before = 24, 0
    elif profile == "sofh-le":
        head, before = 0, 4
    else:
        raise SystemExit("unknown profile " + profile)
    p = head
    while p + 2 <= len(payload):
        length = struct.unpack_from("<H", payload, p)[0]
        if length < max(before, 2) + 1 or p + length > len(payload):
            break
        sbe = payload[p + before : p + length]
        # Coinbase's SBE header starts with the frame length itself.
        h = 2 if before == 0 else 0
        _block, template, schema, version = struct.unpack_from("<HHHH", sbe, h)
        key = "%d/%d/%d" % (schema, template, version)
        counts[key] = counts.get(key, 0) + 1
        p += length
    if p != len(payload):
        unchained.append(index)
    index += 1

print(json.dumps({"messages": counts, "packets": packets, "unchained": unchained}))
