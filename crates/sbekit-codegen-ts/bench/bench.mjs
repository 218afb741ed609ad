// Ops/s of the generated TypeScript codecs in Node, against JSON of the same data.
// Run through bench/run.sh, which generates and compiles the packages: node bench.mjs <dir>.
// Each case: 5 warm-up batches, then 21 timed batches; the median batch gives ops/s.
import { pathToFileURL } from "node:url";

const dir = process.argv[2];
const car = await import(pathToFileURL(`${dir}/car/dist/index.js`).href);
const md = await import(pathToFileURL(`${dir}/md/dist/index.js`).href);

let sink = 0;
// The machine may be shared: cases of a table run round-robin (one batch each per round), so
// that every ratio compares batches timed under the same load; ratios are medians per round.
function table(cases) {
  const times = cases.map(() => []);
  for (let r = 0; r < 31; r++) {
    cases.forEach(([, batch, fn], k) => {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < batch; i++) sink += fn();
      if (r >= 6) times[k].push(Number(process.hrtime.bigint() - t0) / 1e9 / batch);
    });
  }
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  return cases.map(([name], k) => ({
    name,
    ops: 1 / med(times[k]),
    vs: (j) => med(times[j].map((t, r) => t / times[k][r])),
  }));
}

// ---- Car (same values as the reference benchmark) ----
const bytes = (s) => new TextEncoder().encode(s);
const HONDA = bytes("Honda"), CIVIC = bytes("Civic VTi"), ABCDEF = bytes("abcdef"), M123 = bytes("123");
const NUMBERS = [0, 1, 2, 3, 4];
const FUEL = [[30, 35.9], [55, 49.0], [75, 40.0]];
const PERF = [[95, [[30, 4.0], [60, 7.5], [100, 12.2]]], [99, [[30, 3.8], [60, 7.1], [100, 11.8]]]];
const EXTRAS = car.OptionalExtras.of({ sportsPack: true, cruiseControl: true });

const carBuf = new Uint8Array(256);
const carEnc = new car.CarEncoder();
function encodeCar() {
  const e = carEnc.wrap(carBuf, 0);
  e.serialNumber(1234).modelYear(2013).available(car.BooleanType.T).code(car.Model.A)
    .someNumbers(NUMBERS).vehicleCode(ABCDEF).extras(EXTRAS);
  e.engine().capacity(2000).numCylinders(4).manufacturerCode(M123);
  e.fuelFigures((g) => {
    for (const [s, m] of FUEL) g.entry((f) => f.speed(s).mpg(m));
  });
  e.performanceFigures((g) => {
    for (const [o, acc] of PERF) {
      g.entry((p) => {
        p.octaneRating(o);
        p.acceleration((a) => {
          for (const [mph, sec] of acc) a.entry((x) => x.mph(mph).seconds(sec));
        });
      });
    }
  });
  e.manufacturer(HONDA).model(CIVIC);
  return e.finish();
}
const carLen = encodeCar();
const carMsg = carBuf.slice(0, carLen);
const carDec = new car.CarDecoder();

function decodeCarCheck() {
  return carDec.wrap(carMsg, 0).sbeEncodedLength();
}
function decodeCar() {
  const d = carDec.wrap(carMsg, 0);
  let s = d.serialNumber() + d.modelYear() + d.available() + d.code();
  for (let i = 0; i < 5; i++) s += d.someNumbersAt(i);
  s += d.vehicleCode().length + d.extras().raw;
  const en = d.engine();
  s += en.capacity() + en.numCylinders() + en.maxRpm() + en.manufacturerCode().length;
  for (const f of d.fuelFigures()) s += f.speed() + f.mpg();
  for (const p of d.performanceFigures()) {
    s += p.octaneRating();
    for (const a of p.acceleration()) s += a.mph() + a.seconds();
  }
  return s + d.manufacturer().length + d.model().length;
}
function decodeCarLengths() {
  const d = carDec.wrap(carMsg, 0);
  let s = d.serialNumber() + d.modelYear() + d.available() + d.code();
  for (let i = 0; i < 5; i++) s += d.someNumbersAt(i);
  s += d.vehicleCode().length + d.extras().raw;
  const en = d.engine();
  s += en.capacity() + en.numCylinders() + en.maxRpm() + en.manufacturerCode().length;
  for (const f of d.fuelFigures()) s += f.speed() + f.mpg();
  for (const p of d.performanceFigures()) {
    s += p.octaneRating();
    for (const a of p.acceleration()) s += a.mph() + a.seconds();
  }
  return s + d.manufacturerLength() + d.modelLength();
}
function decodeCarStrings() {
  const d = carDec.wrap(carMsg, 0);
  let s = decodeCar();
  return s + d.vehicleCodeString().length + d.engine().manufacturerCodeString().length
    + d.manufacturerString().length + d.modelString().length;
}

const carObj = {
  serialNumber: 1234, modelYear: 2013, available: "T", code: "A", someNumbers: NUMBERS,
  vehicleCode: "abcdef", extras: { sunRoof: false, sportsPack: true, cruiseControl: true },
  engine: { capacity: 2000, numCylinders: 4, maxRpm: 9000, manufacturerCode: "123", fuel: "Petrol" },
  fuelFigures: FUEL.map(([speed, mpg]) => ({ speed, mpg })),
  performanceFigures: PERF.map(([octaneRating, acc]) => ({
    octaneRating, acceleration: acc.map(([mph, seconds]) => ({ mph, seconds })),
  })),
  manufacturer: "Honda", model: "Civic VTi",
};
const carJson = JSON.stringify(carObj);
function jsonParseCar() {
  const d = JSON.parse(carJson);
  let s = d.serialNumber + d.modelYear + d.available.length + d.code.length;
  for (let i = 0; i < 5; i++) s += d.someNumbers[i];
  s += d.vehicleCode.length + (d.extras.sportsPack ? 1 : 0);
  s += d.engine.capacity + d.engine.numCylinders + d.engine.maxRpm + d.engine.manufacturerCode.length;
  for (const f of d.fuelFigures) s += f.speed + f.mpg;
  for (const p of d.performanceFigures) {
    s += p.octaneRating;
    for (const a of p.acceleration) s += a.mph + a.seconds;
  }
  return s + d.manufacturer.length + d.model.length;
}
function jsonStringifyCar() {
  return JSON.stringify(carObj).length;
}

// ---- MD: MarketDataIncrementalRefreshTrades with two entries ----
const mdBuf = new Uint8Array(256);
const mdEnc = new md.MarketDataIncrementalRefreshTradesEncoder();
const TRADES = [[1234n, 56789n, 50n, 10, 1, md.MDUpdateAction.NEW, 1, md.Side.BUY],
  [1235n, 56789n, 51n, 20, 2, md.MDUpdateAction.NEW, 2, md.Side.SELL]];
function encodeMd() {
  const e = mdEnc.wrap(mdBuf, 0);
  e.TransactTime(1234n).EventTimeDelta(0).MatchEventIndicator(md.MatchEventIndicator.END_EVENT);
  e.MdIncGrp((g) => {
    for (const [tid, sid, px, qty, orders, act, seq, side] of TRADES) {
      g.entry((x) => {
        x.TradeId(tid).SecurityId(sid);
        x.MdEntryPx().mantissa(px);
        x.MdEntrySize().mantissa(qty);
        x.NumberOfOrders(orders).MdUpdateAction(act).RptSeq(seq).AggressorSide(side);
      });
    }
  });
  return e.finish();
}
const mdLen = encodeMd();
const mdMsg = mdBuf.slice(0, mdLen);
const mdDec = new md.MarketDataIncrementalRefreshTradesDecoder();
function decodeMdCheck() {
  return mdDec.wrap(mdMsg, 0).sbeEncodedLength();
}
function decodeMd() {
  const d = mdDec.wrap(mdMsg, 0);
  let s = Number(d.TransactTime()) + d.EventTimeDelta() + d.MatchEventIndicator();
  for (const x of d.MdIncGrp()) {
    s += Number(x.TradeId() + x.SecurityId() + x.MdEntryPx().mantissa());
    s += x.MdEntrySize().mantissa() + x.NumberOfOrders() + x.MdUpdateAction() + x.RptSeq() + x.AggressorSide();
  }
  return s;
}
const mdObj = {
  TransactTime: 1234, EventTimeDelta: 0, MatchEventIndicator: "END_EVENT",
  MdIncGrp: TRADES.map(([tid, sid, px, qty, orders, , seq, side]) => ({
    TradeId: Number(tid), SecurityId: Number(sid), MdEntryPx: { mantissa: Number(px), exponent: -7 },
    MdEntrySize: { mantissa: qty, exponent: 0 }, NumberOfOrders: orders, MdUpdateAction: "NEW",
    RptSeq: seq, AggressorSide: side === md.Side.BUY ? "BUY" : "SELL", MdEntryType: "TRADE",
  })),
};
const mdJson = JSON.stringify(mdObj);
function jsonParseMd() {
  const d = JSON.parse(mdJson);
  let s = d.TransactTime + d.EventTimeDelta + d.MatchEventIndicator.length;
  for (const x of d.MdIncGrp) {
    s += x.TradeId + x.SecurityId + x.MdEntryPx.mantissa + x.MdEntrySize.mantissa + x.NumberOfOrders
      + x.MdUpdateAction.length + x.RptSeq + x.AggressorSide.length;
  }
  return s;
}
function jsonStringifyMd() {
  return JSON.stringify(mdObj).length;
}

const carCases = [
  ["SBE decode: check only (wrap)", 100000, decodeCarCheck],
  ["SBE decode + read every field (var data as bytes)", 50000, decodeCar],
  ["SBE decode + read every field (var data lengths only)", 50000, decodeCarLengths],
  ["SBE decode + read every field, strings decoded", 30000, decodeCarStrings],
  ["JSON.parse + read every field", 10000, jsonParseCar],
  ["SBE encode", 30000, encodeCar],
  ["JSON.stringify", 10000, jsonStringifyCar],
];
const mdCases = [
  ["SBE decode: check only (wrap)", 100000, decodeMdCheck],
  ["SBE decode + read every field", 100000, decodeMd],
  ["JSON.parse + read every field", 20000, jsonParseMd],
  ["SBE encode", 50000, encodeMd],
  ["JSON.stringify", 20000, jsonStringifyMd],
];
for (const [name, size, cases] of [
  ["Car", `${carLen} B SBE, ${carJson.length} B JSON`, carCases],
  ["MD", `${mdLen} B SBE, ${mdJson.length} B JSON`, mdCases],
]) {
  console.log(`\n${name} (${size}); median of 25 rounds`);
  const res = table(cases);
  const parse = cases.findIndex((c) => c[0].startsWith("JSON.parse"));
  const str = cases.findIndex((c) => c[0].startsWith("JSON.stringify"));
  for (const c of res) {
    let ratio = "";
    if (c.name.startsWith("SBE decode")) ratio = `  ${c.vs(parse).toFixed(1)}x JSON.parse`;
    if (c.name.startsWith("SBE encode")) ratio = `  ${c.vs(str).toFixed(1)}x JSON.stringify`;
    console.log(`  ${c.name.padEnd(55)} ${(c.ops / 1e6).toFixed(2).padStart(7)} M ops/s${ratio}`);
  }
}
if (sink === 0.5) console.log(sink); // keeps results alive
