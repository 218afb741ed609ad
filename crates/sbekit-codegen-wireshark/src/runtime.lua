-- The walker: the same text in every generated dissector; the schema and framing tables above
-- drive it. Every read is preceded by a length check; a problem becomes an expert-info item
-- with its byte offset, and dissection stops for that message (or packet), never with a Lua
-- error. The pcall in the dissector is only a last guard, reported as an expert item too.

local SZ = { u8 = 1, u16 = 2, u32 = 4, u64 = 8, i8 = 1, i16 = 2, i32 = 4, i64 = 8,
             f32 = 4, f64 = 8, c = 1 }

local E_TRUNC = ProtoExpert.new(PROTO_NAME .. ".expert.truncated", "Truncated",
  expert.group.MALFORMED, expert.severity.ERROR)
local E_LENGTH = ProtoExpert.new(PROTO_NAME .. ".expert.length", "Bad length",
  expert.group.MALFORMED, expert.severity.ERROR)
local E_TEMPLATE = ProtoExpert.new(PROTO_NAME .. ".expert.template", "Unknown template",
  expert.group.MALFORMED, expert.severity.WARN)
local E_SCHEMA = ProtoExpert.new(PROTO_NAME .. ".expert.schema", "Another schema",
  expert.group.PROTOCOL, expert.severity.NOTE)
local E_COMPRESSED = ProtoExpert.new(PROTO_NAME .. ".expert.compressed", "Compressed payload",
  expert.group.PROTOCOL, expert.severity.NOTE)
local E_INTERNAL = ProtoExpert.new(PROTO_NAME .. ".expert.internal", "Dissector error",
  expert.group.MALFORMED, expert.severity.ERROR)
proto.experts = { E_TRUNC, E_LENGTH, E_TEMPLATE, E_SCHEMA, E_COMPRESSED, E_INTERNAL }

local flist = {}
for _, f in pairs(F) do flist[#flist + 1] = f end
proto.fields = flist

-- Reads a primitive (the caller checked that its bytes are there).
local function rd(tvb, off, t, be)
  local r = tvb(off, SZ[t])
  if t == "u64" then
    if be then return r:uint64() else return r:le_uint64() end
  elseif t == "i64" then
    if be then return r:int64() else return r:le_int64() end
  elseif t == "f32" or t == "f64" then
    if be then return r:float() else return r:le_float() end
  elseif t == "i8" or t == "i16" or t == "i32" then
    if be then return r:int() else return r:le_int() end
  else
    if be then return r:uint() else return r:le_uint() end
  end
end

-- The decimal text of an integer (a number, UInt64 or Int64): how null values are compared.
local function key(v)
  if type(v) == "number" then return string.format("%d", v) end
  return tostring(v)
end


-- True if `s` is valid UTF-8.
local function utf8_ok(s)
  local i, n = 1, #s
  while i <= n do
    local c = s:byte(i)
    local k
    if c < 0x80 then k = 0
    elseif c >= 0xC2 and c <= 0xDF then k = 1
    elseif c >= 0xE0 and c <= 0xEF then k = 2
    elseif c >= 0xF0 and c <= 0xF4 then k = 3
    else return false end
    if i + k > n then return false end
    for j = 1, k do
      local d = s:byte(i + j)
      if d < 0x80 or d > 0xBF then return false end
    end
    i = i + k + 1
  end
  return true
end

-- Text as `sbekit decode` reads it: valid UTF-8 kept when the field declares UTF-8 (`u8`),
-- otherwise one code point per byte (Latin-1).
local function text(s, u8)
  if u8 and utf8_ok(s) then return s end
  local out = {}
  for i = 1, #s do
    local c = s:byte(i)
    if c < 0x80 then
      out[#out + 1] = string.char(c)
    else
      out[#out + 1] = string.char(0xC0 + math.floor(c / 64), 0x80 + c % 64)
    end
  end
  return table.concat(out)
end

-- Bytes up to the first NUL, as char arrays are read.
local function cstr(tvb, off, n, u8)
  local b = tvb(off, n):bytes()
  local out = {}
  for i = 0, n - 1 do
    local c = b:get_index(i)
    if c == 0 then break end
    out[#out + 1] = string.char(c)
  end
  return text(table.concat(out), u8)
end

local function problem(tree, ex, at, text)
  tree:add_proto_expert_info(ex, string.format("at byte %d: %s", at, text))
end

local function is_null(d, v)
  if d.nl == nil then return false end
  if d.nl == "nan" then return v ~= v end
  return key(v) == d.nl
end

local add_field

-- A primitive or array field at `off` (its bytes are inside the block).
local function add_prim(tvb, tree, d, off, absent)
  local n = d.l or 1
  -- Constants take no bytes: they are shown whatever the version.
  if d.t == "c" and (n > 1 or d.str) then
    if d.cv ~= nil then
      tree:add(d.f, d.cv):set_text(d.n .. ": " .. d.cv .. " (constant)")
    elseif absent then
      tree:add(d.f, ""):set_text(d.n .. ": (absent)")
    else
      tree:add(d.f, tvb(off, n), cstr(tvb, off, n, d.u8))
    end
    return
  end
  local sz = SZ[d.t]
  for i = 0, n - 1 do
    local it
    if d.cv ~= nil then
      it = tree:add(d.f, d.cv)
      it:append_text(" (constant)")
    elseif absent then
      it = tree:add(d.f, d.nv)
      it:set_text(d.n .. ": (absent)")
    else
      local v = rd(tvb, off + i * sz, d.t, BE)
      if d.t == "c" then
        it = tree:add(d.f, tvb(off + i, 1), text(string.char(v), d.u8))
      else
        it = tree:add(d.f, tvb(off + i * sz, sz), v)
        -- Wireshark shows floats to 6 or 15 digits; the label gives enough digits to read the
        -- value back exactly (9 for a float, 17 for a double).
        if d.t == "f32" then it:set_text(string.format("%s: %.9g", d.n, v)) end
        if d.t == "f64" then it:set_text(string.format("%s: %.17g", d.n, v)) end
      end
      if is_null(d, v) then
        it:append_text(" (null: absent)")
      elseif d.un ~= nil then
        it:append_text(" " .. d.un)
      end
    end
  end
end

local function add_enum(tvb, tree, d, off, absent)
  local e = ENUMS[d.e]
  if d.cv ~= nil then
    tree:add(d.f, d.cv):append_text(" (constant)")
    return
  end
  if absent then
    local it = tree:add(d.f, e.nv)
    it:set_text(d.n .. ": (absent)")
    return
  end
  local v = rd(tvb, off, e.t, BE)
  local it = tree:add(d.f, tvb(off, SZ[e.t]), v)
  local k = key(v)
  if e.nl ~= nil and k == e.nl then
    it:append_text(" (null: absent)")
  elseif e.vs[k] == nil and (e.t == "u64" or e.t == "i64") then
    -- (Narrower enums have a value string: Wireshark labels unknown values itself.)
    it:append_text(" (unknown value)")
  end
end

local function add_set(tvb, tree, d, off, absent)
  local s = SETS[d.s]
  if absent then
    local zero = 0
    if s.t == "u64" then zero = UInt64(0) end
    tree:add(d.f, zero):set_text(d.n .. ": (absent)")
    return
  end
  local r = tvb(off, SZ[s.t])
  local v = rd(tvb, off, s.t, BE)
  local it = tree:add(d.f, r, v)
  -- One bit per choice; 64-bit sets are tested through UInt64's bit operations.
  for _, c in ipairs(d.bits) do
    local on
    if s.t == "u64" then
      on = v:band(UInt64(1):lshift(c.b)) ~= UInt64(0)
    else
      on = bit32.band(v, bit32.lshift(1, c.b)) ~= 0
    end
    it:add(c.f, r, on)
  end
end

local function add_composite(tvb, tree, d, off, absent, ver)
  local it
  if absent then
    -- No bytes: the item has no range (its offset may lie past the end of the block).
    it = tree:add(d.f)
    it:append_text(" (absent)")
  else
    it = tree:add(d.f, tvb(off, d.sz))
  end
  for _, m in ipairs(d.m) do
    add_field(tvb, it, m, off + m.o, absent or m.v > ver, ver)
  end
end

add_field = function(tvb, tree, d, off, absent, ver)
  if d.k == "p" then add_prim(tvb, tree, d, off, absent)
  elseif d.k == "e" then add_enum(tvb, tree, d, off, absent)
  elseif d.k == "s" then add_set(tvb, tree, d, off, absent)
  else add_composite(tvb, tree, d, off, absent, ver) end
end

-- The block bytes the fields present at acting version `ver` need.
local function required(b, ver)
  local need = 0
  for _, r in ipairs(b.rq) do
    if r[1] <= ver then need = r[2] end
  end
  return need
end

local function slot(tvb, s, at, be)
  if s.c ~= nil then return s.c end
  local v = rd(tvb, at + s.o, s.t, be)
  if s.t == "u64" then return v:tonumber() end
  return v
end

-- Walks a body (a message's or a group entry's): its block of `blen` bytes at `pos`, then its
-- groups and var data. Returns the position after it, or nil after reporting a problem.
local walk
walk = function(tvb, tree, b, pos, stop, blen, ver)
  local need = required(b, ver)
  if blen < need then
    problem(tree, E_LENGTH, pos, string.format(
      "block length %d is shorter than the %d bytes version %d needs", blen, need, ver))
    return nil
  end
  if stop - pos < blen then
    problem(tree, E_TRUNC, pos, string.format(
      "block of %d bytes, %d left", blen, stop - pos))
    return nil
  end
  for _, d in ipairs(b.fs) do
    add_field(tvb, tree, d, pos + d.o, d.v > ver, ver)
  end
  pos = pos + blen
  for _, s in ipairs(b.ss) do
    if s.k == "g" then
      if s.v > ver then
        tree:add(s.f, 0):set_text(s.n .. ": (absent)")
      else
        if stop - pos < s.d then
          problem(tree, E_TRUNC, pos, s.n .. ": group header truncated")
          return nil
        end
        local gbl = slot(tvb, s.bl, pos, BE)
        local cnt = slot(tvb, s.ct, pos, BE)
        local g = tree:add(s.f, tvb(pos, s.d), cnt)
        g:set_text(string.format("%s (%d entries)", s.n, cnt))
        pos = pos + s.d
        if gbl > 0 and cnt * gbl > stop - pos then
          problem(g, E_LENGTH, pos - s.d, string.format(
            "%s: %d entries of %d bytes overrun the %d bytes left", s.n, cnt, gbl, stop - pos))
          return nil
        end
        if gbl == 0 and cnt > 65535 then
          problem(g, E_LENGTH, pos - s.d, string.format("%s: %d empty entries", s.n, cnt))
          return nil
        end
        for i = 0, cnt - 1 do
          local start = pos
          -- An empty entry at the very end of the packet has no byte to point at.
          local e
          if pos < tvb:len() then e = g:add(s.ef, tvb(pos, 0)) else e = g:add(s.ef) end
          e:set_text(string.format("%s[%d]", s.n, i))
          pos = walk(tvb, e, s.b, pos, stop, gbl, ver)
          if pos == nil then return nil end
          e:set_len(pos - start)
        end
      end
    else
      if s.v > ver then
        tree:add(s.f, ""):set_text(s.n .. ": (absent)")
      else
        if stop - pos < s.d then
          problem(tree, E_TRUNC, pos, s.n .. ": length truncated")
          return nil
        end
        local n = slot(tvb, s.ln, pos, BE)
        if n > stop - pos - s.d then
          problem(tree, E_LENGTH, pos, string.format(
            "%s: length %d overruns the %d bytes left", s.n, n, stop - pos - s.d))
          return nil
        end
        local r = tvb(pos, s.d + n)
        if s.x then
          local txt = ""
          if n > 0 then txt = text(tvb(pos + s.d, n):raw(), s.u8) end
          tree:add(s.f, r, txt)
        elseif n > 0 then
          tree:add(s.f, tvb(pos + s.d, n))
        else
          tree:add(s.f, "")
        end
        pos = pos + s.d + n
      end
    end
  end
  return pos
end

-- One SBE message (header included) in [off, stop).
local function message(tvb, pinfo, tree, off, stop, names)
  if stop - off < HDR.size then
    problem(tree, E_TRUNC, off, string.format(
      "message header of %d bytes, %d left", HDR.size, stop - off))
    return
  end
  local blen = slot(tvb, HDR.bl, off, BE)
  local tid = slot(tvb, HDR.tid, off, BE)
  local sid = slot(tvb, HDR.sid, off, BE)
  local ver = slot(tvb, HDR.ver, off, BE)
  local m = MESSAGES[tid]
  local label = m and m.n or ("template " .. tid)
  local mt = tree:add(m and m.f or F_MESSAGE, tvb(off, stop - off))
  mt:set_text(string.format("%s (template %d, version %d, %d bytes)", label, tid, ver, stop - off))
  local h = mt:add(F_HEADER, tvb(off, HDR.size))
  if HDR.bl.c == nil then h:add(F_BLOCKLENGTH, tvb(off + HDR.bl.o, SZ[HDR.bl.t]), blen) end
  if HDR.tid.c == nil then h:add(F_TEMPLATEID, tvb(off + HDR.tid.o, SZ[HDR.tid.t]), tid) end
  if HDR.sid.c == nil then h:add(F_SCHEMAID, tvb(off + HDR.sid.o, SZ[HDR.sid.t]), sid) end
  if HDR.ver.c == nil then h:add(F_VERSION, tvb(off + HDR.ver.o, SZ[HDR.ver.t]), ver) end
  -- A constant schemaId is not on the wire: nothing to check.
  if HDR.sid.c == nil and sid ~= SCHEMA_ID then
    problem(mt, E_SCHEMA, off, string.format("schema id %d, not %d", sid, SCHEMA_ID))
    return
  end
  if m == nil then
    problem(mt, E_TEMPLATE, off, string.format("unknown template %d", tid))
    return
  end
  names[#names + 1] = m.n
  walk(tvb, mt, m.b, off + HDR.size, stop, blen, ver)
end

-- LZ4 block decompression into a ByteArray (at most 64 KiB); nil and a reason on bad input.
local function lz4(tvb, off, n)
  local src = tvb(off, n):bytes()
  local out = {}
  local i = 0
  local function byte()
    local b = src:get_index(i)
    i = i + 1
    return b
  end
  while i < n do
    local token = byte()
    local lit_len = bit32.rshift(token, 4)
    if lit_len == 15 then
      repeat
        if i >= n then return nil, "literal length truncated" end
        local b = byte()
        lit_len = lit_len + b
      until b ~= 255
    end
    if i + lit_len > n then return nil, "literals overrun the block" end
    for _ = 1, lit_len do out[#out + 1] = byte() end
    if #out > 65536 then return nil, "more than 64 KiB" end
    if i >= n then break end
    if i + 2 > n then return nil, "match offset truncated" end
    local moff = byte() + 256 * byte()
    if moff == 0 or moff > #out then return nil, "match offset out of range" end
    local mlen = bit32.band(token, 15)
    if mlen == 15 then
      repeat
        if i >= n then return nil, "match length truncated" end
        local b = byte()
        mlen = mlen + b
      until b ~= 255
    end
    mlen = mlen + 4
    if #out + mlen > 65536 then return nil, "more than 64 KiB" end
    local from = #out - moff
    for k = 1, mlen do out[#out + 1] = out[from + k] end
  end
  local ba = ByteArray.new()
  ba:set_size(#out)
  for k = 1, #out do ba:set_index(k - 1, out[k]) end
  return ba
end

-- Frames the messages of [off, len) of `tvb` (a packet after its header, or a stream segment).
-- Returns the number of bytes wanted to finish a message split across TCP segments, or 0.
local function frames(tvb, pinfo, tree, off, len, names)
  local idx = 0
  while off < len do
    local left = len - off
    if left < FRAME.lw then
      if FRAME.stream and pinfo.can_desegment > 0 then return off, DESEGMENT_ONE_MORE_SEGMENT end
      problem(tree, E_TRUNC, off, string.format("%d trailing bytes", left))
      return off, 0
    end
    local mlen = rd(tvb, off, FRAME.lw == 2 and "u16" or "u32", FRAME.be)
    local frame = mlen
    if not FRAME.counts_itself then frame = mlen + FRAME.before end
    local min = math.max(FRAME.before, FRAME.lw) + 1
    if frame < min then
      problem(tree, E_LENGTH, off, string.format("message length %d", mlen))
      return off, 0
    end
    if frame > left then
      if FRAME.stream and pinfo.can_desegment > 0 and frame <= 16777216 then
        return off, frame - left
      end
      problem(tree, E_LENGTH, off, string.format(
        "message length %d overruns the %d bytes left", mlen, left))
      return off, 0
    end
    if FRAME.before > 0 then
      local ft = tree:add(F_FRAMELENGTH, tvb(off, FRAME.lw), mlen)
      if FRAME.before >= FRAME.lw + 2 then
        local et = rd(tvb, off + FRAME.lw, "u16", FRAME.be)
        tree:add(F_ENCODING, tvb(off + FRAME.lw, 2), et)
      end
      ft:append_text(string.format(" (message %d)", idx))
    end
    message(tvb, pinfo, tree, off + FRAME.before, off + frame, names)
    idx = idx + 1
    off = off + frame
  end
  return off, 0
end

local function u64(v)
  if type(v) == "number" then return UInt64(v) end
  return v
end

local function dissect(tvb, pinfo, root)
  local len = tvb:len()
  local names = {}
  local off = 0
  local pk = PACKET
  if pk.tcp ~= nil and pinfo.port_type == 2 and len >= 2 and
      rd(tvb, pk.tcp.magic[1], "u16", FRAME.be) == pk.tcp.magic[2] then
    pk = pk.tcp
  end
  if pk.size > 0 then
    if len < pk.size then
      problem(root, E_TRUNC, 0, string.format(
        "packet header of %d bytes, %d left", pk.size, len))
      return len
    end
    local h = root:add(F_PACKET, tvb(0, pk.size))
    if pk.seq ~= nil then
      h:add(F_SEQ, tvb(pk.seq[1], pk.seq[2]), u64(rd(tvb, pk.seq[1], pk.seq[3], FRAME.be)))
    end
    if pk.time ~= nil then
      local ns = u64(rd(tvb, pk.time[1], pk.time[3], FRAME.be))
      local it = h:add(F_TIME, tvb(pk.time[1], pk.time[2]), ns)
      local secs = (ns / 1000000000):tonumber()
      local frac = (ns % 1000000000):tonumber()
      it:append_text(string.format(" (%s.%09d UTC)", os.date("!%Y-%m-%d %H:%M:%S", secs), frac))
    end
    off = pk.size
    if pk.lz4 ~= nil then
      local flags = rd(tvb, pk.lz4[1], "u16", FRAME.be)
      h:add(F_FLAGS, tvb(pk.lz4[1], 2), flags)
      if bit32.band(flags, 1) ~= 0 then
        local ba, why = lz4(tvb, off, len - off)
        if ba == nil then
          problem(root, E_COMPRESSED, off, "LZ4 payload not decompressed: " .. why)
          return len
        end
        root:add_proto_expert_info(E_COMPRESSED, "LZ4-compressed payload, decompressed")
        local dtvb = ba:tvb("LZ4 decompressed")
        frames(dtvb, pinfo, root, 0, dtvb:len(), names)
        pinfo.cols.info = table.concat(names, ", ")
        return len
      end
    end
  end
  local at, more = frames(tvb, pinfo, root, off, len, names)
  if more ~= nil and more ~= 0 then
    pinfo.desegment_offset = at
    pinfo.desegment_len = more
  end
  if #names > 0 then pinfo.cols.info = table.concat(names, ", ") end
  return len
end

function proto.dissector(tvb, pinfo, tree)
  pinfo.cols.protocol = PROTO_LABEL
  local root = tree:add(proto, tvb())
  local ok, result = pcall(dissect, tvb, pinfo, root)
  if not ok then
    root:add_proto_expert_info(E_INTERNAL, "dissector error: " .. tostring(result))
    return tvb:len()
  end
  return result
end

-- Heuristic: a packet header, then a first message of this schema id and a version no newer
-- than the schema's.
local function heuristic(tvb, pinfo, tree)
  local len = tvb:len()
  local pk = PACKET
  if pk.tcp ~= nil and pinfo.port_type == 2 and len >= 2 and
      rd(tvb, pk.tcp.magic[1], "u16", FRAME.be) == pk.tcp.magic[2] then
    pk = pk.tcp
  end
  if pk.lz4 ~= nil and len >= pk.size and bit32.band(rd(tvb, pk.lz4[1], "u16", FRAME.be), 1) ~= 0 then
    return false
  end
  local at = pk.size + FRAME.before
  if len < at + HDR.size then return false end
  local sid = slot(tvb, HDR.sid, at, BE)
  local ver = slot(tvb, HDR.ver, at, BE)
  if (HDR.sid.c == nil and sid ~= SCHEMA_ID) or ver > SCHEMA_VERSION then return false end
  if MESSAGES[slot(tvb, HDR.tid, at, BE)] == nil then return false end
  proto.dissector(tvb, pinfo, tree)
  return true
end

for _, list in ipairs(FRAME.heuristic) do proto:register_heuristic(list, heuristic) end
for _, port in ipairs(UDP_PORTS) do DissectorTable.get("udp.port"):add(port, proto) end
for _, port in ipairs(TCP_PORTS) do DissectorTable.get("tcp.port"):add(port, proto) end
