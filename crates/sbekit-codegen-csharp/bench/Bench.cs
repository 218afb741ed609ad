// Car and MD (MarketDataIncrementalRefreshTrades, two entries) encoded and decoded by sbekit's
// generated C# and by hand-written C# over the same byte[] layout, in one Mono process, driven
// as the reference's sbe-benchmarks drive them (the same values; decode reads every field and
// copies var data into a byte[]). The reference's own C# needs System.Memory (Span<byte>) and
// its Org.SbeTool.Sbe.Dll runtime from NuGet, which Mono here does not have. Run by run.sh.
using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;

public static class Hand
{
    // Little-endian stores and loads, as one writes them by hand.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    static void U16(byte[] b, int p, int v) { b[p] = (byte)v; b[p + 1] = (byte)(v >> 8); }
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    static void U32(byte[] b, int p, uint v) { b[p] = (byte)v; b[p + 1] = (byte)(v >> 8); b[p + 2] = (byte)(v >> 16); b[p + 3] = (byte)(v >> 24); }
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    static void U64(byte[] b, int p, ulong v) { U32(b, p, (uint)v); U32(b, p + 4, (uint)(v >> 32)); }
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    static int R16(byte[] b, int p) { return b[p] | b[p + 1] << 8; }
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    static uint R32(byte[] b, int p) { return (uint)(b[p] | b[p + 1] << 8 | b[p + 2] << 16 | b[p + 3] << 24); }
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    static ulong R64(byte[] b, int p) { return R32(b, p) | (ulong)R32(b, p + 4) << 32; }

    // Float bits without allocation: BitConverter.SingleToInt32Bits is not in .NET Standard 2.0.
    [System.Runtime.InteropServices.StructLayout(System.Runtime.InteropServices.LayoutKind.Explicit)]
    struct Bits
    {
        [System.Runtime.InteropServices.FieldOffset(0)] public uint U;
        [System.Runtime.InteropServices.FieldOffset(0)] public float F;
    }
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    static void PF(byte[] b, int p, float v) { var x = default(Bits); x.F = v; U32(b, p, x.U); }
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    static float RF(byte[] b, int p) { var x = default(Bits); x.U = R32(b, p); return x.F; }

    static void Header(byte[] b, int blockLength, int templateId)
    {
        U16(b, 0, blockLength); U16(b, 2, templateId); U16(b, 4, 1); U16(b, 6, 1);
    }

    public static int CarEncode(byte[] b)
    {
        Header(b, 41, 1);
        const int p = 8;
        U32(b, p, 12345); U16(b, p + 4, 2005); b[p + 6] = 1; b[p + 7] = (byte)'A';
        for (int i = 0; i < 5; i++) U32(b, p + 8 + i * 4, (uint)i);
        Array.Copy(BenchMain.VehicleCode, 0, b, p + 28, 6);
        b[p + 34] = 0b011; // sunRoof, sportsPack
        U16(b, p + 35, 4200); b[p + 37] = 8; Array.Copy(BenchMain.EngManCode, 0, b, p + 38, 3);
        int q = p + 41;
        U16(b, q, 6); U16(b, q + 2, 3); q += 4;
        U16(b, q, 30); PF(b, q + 2, 35.9f); q += 6;
        U16(b, q, 55); PF(b, q + 2, 49.0f); q += 6;
        U16(b, q, 75); PF(b, q + 2, 40.0f); q += 6;
        U16(b, q, 1); U16(b, q + 2, 2); q += 4;
        b[q++] = 95;
        U16(b, q, 6); U16(b, q + 2, 3); q += 4;
        U16(b, q, 30); PF(b, q + 2, 4.0f); q += 6;
        U16(b, q, 60); PF(b, q + 2, 7.5f); q += 6;
        U16(b, q, 100); PF(b, q + 2, 12.2f); q += 6;
        b[q++] = 99;
        U16(b, q, 6); U16(b, q + 2, 3); q += 4;
        U16(b, q, 30); PF(b, q + 2, 3.8f); q += 6;
        U16(b, q, 60); PF(b, q + 2, 7.1f); q += 6;
        U16(b, q, 100); PF(b, q + 2, 11.8f); q += 6;
        U32(b, q, (uint)BenchMain.Make.Length); Array.Copy(BenchMain.Make, 0, b, q + 4, BenchMain.Make.Length); q += 4 + BenchMain.Make.Length;
        U32(b, q, (uint)BenchMain.Model.Length); Array.Copy(BenchMain.Model, 0, b, q + 4, BenchMain.Model.Length); q += 4 + BenchMain.Model.Length;
        return q;
    }

    public static int CarDecode(byte[] b, byte[] temp)
    {
        int p = 8;
        int sum = 0;
        sum += (int)R32(b, p); sum += R16(b, p + 4); sum += b[p + 6]; sum += b[p + 7];
        for (int i = 0; i < 5; i++) sum += (int)R32(b, p + 8 + i * 4);
        Array.Copy(b, p + 28, temp, 0, 6); sum += 6;
        int x = b[p + 34];
        sum += (x >> 2) & 1; sum += (x >> 1) & 1; sum += x & 1;
        sum += R16(b, p + 35); sum += b[p + 37]; sum += 9000;
        Array.Copy(b, p + 38, temp, 0, 3); sum += 3; sum += 6; // fuel: the constant "Petrol"
        int q = p + R16(b, 0);
        int bl = R16(b, q), n = R16(b, q + 2); q += 4;
        for (int i = 0; i < n; i++, q += bl) { sum += R16(b, q); sum += (int)RF(b, q + 2); }
        bl = R16(b, q); n = R16(b, q + 2); q += 4;
        for (int i = 0; i < n; i++)
        {
            sum += b[q]; q += bl;
            int abl = R16(b, q), an = R16(b, q + 2); q += 4;
            for (int j = 0; j < an; j++, q += abl) { sum += R16(b, q); sum += (int)RF(b, q + 2); }
        }
        int len = (int)R32(b, q); Array.Copy(b, q + 4, temp, 0, len); sum += len; q += 4 + len;
        len = (int)R32(b, q); Array.Copy(b, q + 4, temp, 0, len); sum += len;
        return sum;
    }

    public static int MdEncode(byte[] b)
    {
        Header(b, 11, 2);
        const int p = 8;
        U64(b, p, 1234); U16(b, p + 8, 987); b[p + 10] = (byte)'2';
        int q = p + 11;
        U16(b, q, 33); U16(b, q + 2, 2); q += 4;
        for (int i = 0; i < 2; i++, q += 33)
        {
            U64(b, q, 1234); U64(b, q + 8, 56789);
            U64(b, q + 16, i == 0 ? 50UL : 150UL); U32(b, q + 24, i == 0 ? 10U : 25U);
            U16(b, q + 28, 1); b[q + 30] = 0; b[q + 31] = 1; b[q + 32] = (byte)(i == 0 ? '1' : '2');
        }
        return q;
    }

    public static int MdDecode(byte[] b)
    {
        const int p = 8;
        long sum = 0;
        sum += (long)R64(b, p); sum += R16(b, p + 8); sum += b[p + 10];
        int q = p + R16(b, 0);
        int bl = R16(b, q), n = R16(b, q + 2); q += 4;
        for (int i = 0; i < n; i++, q += bl)
        {
            sum += (long)R64(b, q); sum += (long)R64(b, q + 8); sum += (long)R64(b, q + 16); sum += (int)R32(b, q + 24);
            sum += R16(b, q + 28); sum += b[q + 30]; sum += b[q + 31]; sum += b[q + 32]; sum += '2';
        }
        return (int)sum;
    }
}

public static class Kit
{
    static readonly Bench.Car.CarEncoder CarEnc = new Bench.Car.CarEncoder();
    static readonly Bench.Car.CarDecoder CarDec = new Bench.Car.CarDecoder();
    static readonly Bench.Fix.MarketDataIncrementalRefreshTradesEncoder MdEnc = new Bench.Fix.MarketDataIncrementalRefreshTradesEncoder();
    static readonly Bench.Fix.MarketDataIncrementalRefreshTradesDecoder MdDec = new Bench.Fix.MarketDataIncrementalRefreshTradesDecoder();

    public static int CarEncode(byte[] b)
    {
        var car = CarEnc.Wrap(b, 0)
            .Code(Bench.Car.Model.A)
            .ModelYear(2005)
            .SerialNumber(12345)
            .Available(Bench.Car.BooleanType.T)
            .PutVehicleCode(BenchMain.VehicleCode, 0, 6);
        for (int i = 0; i < 5; i++) car.SomeNumbers(i, i);
        car.Extras().Clear().SportsPack(true).SunRoof(true);
        car.Engine().Capacity(4200).NumCylinders(8).PutManufacturerCode(BenchMain.EngManCode, 0, 3);
        var fuel = car.FuelFigures();
        fuel.Next().Speed(30).Mpg(35.9f);
        fuel.Next().Speed(55).Mpg(49.0f);
        fuel.Next().Speed(75).Mpg(40.0f);
        var perf = car.PerformanceFigures();
        var acc = perf.Next().OctaneRating(95).Acceleration();
        acc.Next().Mph(30).Seconds(4.0f);
        acc.Next().Mph(60).Seconds(7.5f);
        acc.Next().Mph(100).Seconds(12.2f);
        acc = perf.Next().OctaneRating(99).Acceleration();
        acc.Next().Mph(30).Seconds(3.8f);
        acc.Next().Mph(60).Seconds(7.1f);
        acc.Next().Mph(100).Seconds(11.8f);
        car.Manufacturer(BenchMain.Make, 0, BenchMain.Make.Length);
        car.Model(BenchMain.Model, 0, BenchMain.Model.Length);
        return car.EncodedLength();
    }

    public static int CarDecode(byte[] b, byte[] temp)
    {
        var car = CarDec.Wrap(b, 0, b.Length);
        int sum = 0;
        sum += (int)car.SerialNumber();
        sum += car.ModelYear();
        sum += car.AvailableRaw();
        sum += car.CodeRaw();
        for (int i = 0; i < 5; i++) sum += car.SomeNumbers(i);
        sum += car.GetVehicleCode(temp, 0);
        var extras = car.Extras();
        sum += extras.CruiseControl() ? 1 : 0;
        sum += extras.SportsPack() ? 1 : 0;
        sum += extras.SunRoof() ? 1 : 0;
        var engine = car.Engine();
        sum += engine.Capacity();
        sum += engine.NumCylinders();
        sum += engine.MaxRpm();
        sum += engine.GetManufacturerCode(temp, 0);
        sum += engine.Fuel().Length;
        foreach (var f in car.FuelFigures())
        {
            sum += f.Speed();
            sum += (int)f.Mpg();
        }
        foreach (var pf in car.PerformanceFigures())
        {
            sum += pf.OctaneRating();
            foreach (var a in pf.Acceleration())
            {
                sum += a.Mph();
                sum += (int)a.Seconds();
            }
        }
        sum += car.GetManufacturer(temp, 0, temp.Length);
        sum += car.GetModel(temp, 0, temp.Length);
        return sum;
    }

    public static int MdEncode(byte[] b)
    {
        var md = MdEnc.Wrap(b, 0)
            .TransactTime(1234)
            .EventTimeDelta(987)
            .MatchEventIndicator(Bench.Fix.MatchEventIndicator.EndEvent);
        var g = md.MdIncGrp();
        g.Next().TradeId(1234).SecurityId(56789);
        g.MdEntryPx().Mantissa(50);
        g.MdEntrySize().Mantissa(10);
        g.NumberOfOrders(1).MdUpdateAction(Bench.Fix.MdUpdateAction.New).RptSeq(1).AggressorSide(Bench.Fix.Side.Buy);
        g.Next().TradeId(1234).SecurityId(56789);
        g.MdEntryPx().Mantissa(150);
        g.MdEntrySize().Mantissa(25);
        g.NumberOfOrders(1).MdUpdateAction(Bench.Fix.MdUpdateAction.New).RptSeq(1).AggressorSide(Bench.Fix.Side.Sell);
        return md.EncodedLength();
    }

    public static int MdDecode(byte[] b)
    {
        var md = MdDec.Wrap(b, 0, b.Length);
        long sum = 0;
        sum += (long)md.TransactTime();
        sum += md.EventTimeDelta();
        sum += md.MatchEventIndicatorRaw();
        foreach (var g in md.MdIncGrp())
        {
            sum += (long)g.TradeId();
            sum += (long)g.SecurityId();
            sum += g.MdEntryPx().Mantissa();
            sum += g.MdEntrySize().Mantissa();
            sum += g.NumberOfOrders();
            sum += g.MdUpdateActionRaw();
            sum += g.RptSeq();
            sum += g.AggressorSideRaw();
            sum += (byte)g.MdEntryType();
        }
        return (int)sum;
    }
}

public static class BenchMain
{
    public static readonly byte[] Make = System.Text.Encoding.ASCII.GetBytes("MAKE");
    public static readonly byte[] Model = System.Text.Encoding.ASCII.GetBytes("MODEL");
    public static readonly byte[] EngManCode = System.Text.Encoding.ASCII.GetBytes("abc");
    public static readonly byte[] VehicleCode = System.Text.Encoding.ASCII.GetBytes("abcdef");

    static readonly byte[] EncBuf = new byte[1024];
    static readonly byte[] Temp = new byte[128];
    static byte[] carMsg;
    static byte[] mdMsg;
    static int sink;

    delegate int Op();

    static byte[] Copy(byte[] b, int n) { var m = new byte[n]; Array.Copy(b, m, n); return m; }

    static bool Same(byte[] a, byte[] b)
    {
        if (a.Length != b.Length) return false;
        for (int i = 0; i < a.Length; i++) if (a[i] != b[i]) return false;
        return true;
    }

    static double Time(Op op, int n)
    {
        var sw = Stopwatch.StartNew();
        int s = 0;
        for (int i = 0; i < n; i++) s += op();
        sw.Stop();
        sink += s;
        return sw.Elapsed.TotalMilliseconds * 1e6 / n;
    }

    public static int Main(string[] args)
    {
        int rounds = args.Length > 0 ? int.Parse(args[0]) : 11;
        int n = args.Length > 1 ? int.Parse(args[1]) : 1000000;
        // The hand-written encoders write the bytes sbekit's encoders write.
        int carLen = Kit.CarEncode(EncBuf);
        carMsg = Copy(EncBuf, carLen);
        Array.Clear(EncBuf, 0, EncBuf.Length);
        if (Hand.CarEncode(EncBuf) != carLen || !Same(Copy(EncBuf, carLen), carMsg)) { Console.Error.WriteLine("car: hand-written bytes differ"); return 1; }
        int mdLen = Kit.MdEncode(EncBuf);
        mdMsg = Copy(EncBuf, mdLen);
        Array.Clear(EncBuf, 0, EncBuf.Length);
        if (Hand.MdEncode(EncBuf) != mdLen || !Same(Copy(EncBuf, mdLen), mdMsg)) { Console.Error.WriteLine("md: hand-written bytes differ"); return 1; }
        if (Kit.CarDecode(carMsg, Temp) != Hand.CarDecode(carMsg, Temp) || Kit.MdDecode(mdMsg) != Hand.MdDecode(mdMsg)) { Console.Error.WriteLine("decoded sums differ"); return 1; }
        var names = new[] { "car encode", "car decode", "md encode", "md decode" };
        var kit = new Op[] { () => Kit.CarEncode(EncBuf), () => Kit.CarDecode(carMsg, Temp), () => Kit.MdEncode(EncBuf), () => Kit.MdDecode(mdMsg) };
        var hand = new Op[] { () => Hand.CarEncode(EncBuf), () => Hand.CarDecode(carMsg, Temp), () => Hand.MdEncode(EncBuf), () => Hand.MdDecode(mdMsg) };
        var tk = new double[4, rounds];
        var th = new double[4, rounds];
        for (int w = 0; w < 4; w++) { Time(kit[w], n / 10); Time(hand[w], n / 10); }
        for (int r = 0; r < rounds; r++)
        {
            for (int w = 0; w < 4; w++)
            {
                // Alternated: which codec goes first flips every round.
                if (r % 2 == 0) { tk[w, r] = Time(kit[w], n); th[w, r] = Time(hand[w], n); }
                else { th[w, r] = Time(hand[w], n); tk[w, r] = Time(kit[w], n); }
            }
        }
        Console.WriteLine("Mono " + Type.GetType("Mono.Runtime").GetMethod("GetDisplayName", System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static).Invoke(null, null));
        Console.WriteLine(string.Format("car {0} B, md {1} B; medians of {2} alternated rounds of {3} ops, ns/op", carLen, mdLen, rounds, n));
        Console.WriteLine("| benchmark | sbekit C# | hand-written C# | ratio |");
        Console.WriteLine("|---|---:|---:|---:|");
        for (int w = 0; w < 4; w++)
        {
            double k = Median(tk, w, rounds), h = Median(th, w, rounds);
            Console.WriteLine(string.Format(System.Globalization.CultureInfo.InvariantCulture, "| {0} | {1:F1} | {2:F1} | {3:F2}x |", names[w], k, h, k / h));
        }
        // Allocation: 10M operations of each sbekit codec.
        for (int w = 0; w < 4; w++)
        {
            var op = kit[w];
            long c0 = GC.CollectionCount(0);
            long b0 = GC.GetAllocatedBytesForCurrentThread();
            int s = 0;
            for (int i = 0; i < 10000000; i++) s += op();
            long b1 = GC.GetAllocatedBytesForCurrentThread();
            long c1 = GC.CollectionCount(0);
            sink += s;
            Console.WriteLine(string.Format("alloc {0}: 10M ops, {1} gen-0 collections, {2} bytes allocated", names[w], c1 - c0, b1 - b0));
        }
        return sink == 42 ? 3 : 0;
    }

    static double Median(double[,] t, int w, int rounds)
    {
        var v = new double[rounds];
        for (int r = 0; r < rounds; r++) v[r] = t[w, r];
        Array.Sort(v);
        return v[rounds / 2];
    }
}
