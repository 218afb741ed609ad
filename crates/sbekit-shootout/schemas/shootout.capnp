# The 2019 shootout's message shape in Cap'n Proto: one MultiMessage per IEX-TP segment with a
# sequence number and a list of messages; each message has a timestamp, the symbol as text and
# a union of a trade or a quote (price level update).
@0xb6d3a4d5c2e1f017;

enum Side {
  buy @0;
  sell @1;
}

struct Trade {
  price @0 :UInt64;
  size @1 :UInt32;
}

struct Quote {
  price @0 :UInt64;
  size @1 :UInt32;
  flags @2 :UInt8;
  side @3 :Side;
}

struct Message {
  timestamp @0 :Int64;
  symbol @1 :Text;
  union {
    trade @2 :Trade;
    quote @3 :Quote;
  }
}

struct MultiMessage {
  sequenceNumber @0 :UInt64;
  messages @1 :List(Message);
}
