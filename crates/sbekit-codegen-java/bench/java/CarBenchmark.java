// JMH: the Car message encoded and decoded by sbekit's generated Java and by the reference's
// generated Java (sbe-all 1.38.1), each driven as the reference's sbe-benchmarks drive it (the
// same values, every field read on decode, var data copied into a byte array). Both codecs in
// one JVM. Run by bench/run.sh.
package bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.*;

public class CarBenchmark {
    static final byte[] MAKE = "MAKE".getBytes(StandardCharsets.US_ASCII);
    static final byte[] MODEL = "MODEL".getBytes(StandardCharsets.US_ASCII);
    static final byte[] ENG_MAN_CODE = "abc".getBytes(StandardCharsets.US_ASCII);
    static final byte[] VEHICLE_CODE = "abcdef".getBytes(StandardCharsets.US_ASCII);

    @State(Scope.Benchmark)
    public static class Ref {
        final uk.co.real_logic.sbe.benchmarks.MessageHeaderEncoder headerEncoder = new uk.co.real_logic.sbe.benchmarks.MessageHeaderEncoder();
        final uk.co.real_logic.sbe.benchmarks.MessageHeaderDecoder headerDecoder = new uk.co.real_logic.sbe.benchmarks.MessageHeaderDecoder();
        final uk.co.real_logic.sbe.benchmarks.CarEncoder encoder = new uk.co.real_logic.sbe.benchmarks.CarEncoder();
        final uk.co.real_logic.sbe.benchmarks.CarDecoder decoder = new uk.co.real_logic.sbe.benchmarks.CarDecoder();
        final UnsafeBuffer encodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));
        final UnsafeBuffer decodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));
        final byte[] temp = new byte[128];

        {
            refEncode(this, decodeBuffer);
        }
    }

    @State(Scope.Benchmark)
    public static class Kit {
        final sbekit.bench.car.CarEncoder encoder = new sbekit.bench.car.CarEncoder();
        final sbekit.bench.car.CarDecoder decoder = new sbekit.bench.car.CarDecoder();
        final UnsafeBuffer encodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));
        final UnsafeBuffer decodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1024));
        final byte[] temp = new byte[128];

        {
            kitEncode(this, decodeBuffer);
        }
    }

    @Benchmark
    public int referenceEncode(final Ref s) {
        return refEncode(s, s.encodeBuffer);
    }

    @Benchmark
    public int referenceDecode(final Ref s) {
        return refDecode(s);
    }

    @Benchmark
    public int sbekitEncode(final Kit s) {
        return kitEncode(s, s.encodeBuffer);
    }

    @Benchmark
    public int sbekitDecode(final Kit s) {
        return kitDecode(s);
    }

    static int refEncode(final Ref s, final UnsafeBuffer buffer) {
        final uk.co.real_logic.sbe.benchmarks.CarEncoder car = s.encoder;
        car.wrapAndApplyHeader(buffer, 0, s.headerEncoder)
            .code(uk.co.real_logic.sbe.benchmarks.Model.A)
            .modelYear(2005)
            .serialNumber(12345)
            .available(uk.co.real_logic.sbe.benchmarks.BooleanType.T)
            .putVehicleCode(VEHICLE_CODE, 0);
        for (int i = 0, size = uk.co.real_logic.sbe.benchmarks.CarEncoder.someNumbersLength(); i < size; i++) {
            car.someNumbers(i, i);
        }
        car.extras().clear().sportsPack(true).sunRoof(true);
        car.engine().capacity(4200).numCylinders((short) 8).putManufacturerCode(ENG_MAN_CODE, 0);
        final uk.co.real_logic.sbe.benchmarks.CarEncoder.FuelFiguresEncoder fuel = car.fuelFiguresCount(3);
        fuel.next().speed(30).mpg(35.9f);
        fuel.next().speed(55).mpg(49.0f);
        fuel.next().speed(75).mpg(40.0f);
        final uk.co.real_logic.sbe.benchmarks.CarEncoder.PerformanceFiguresEncoder perf = car.performanceFiguresCount(2);
        perf.next().octaneRating((short) 95).accelerationCount(3)
            .next().mph(30).seconds(4.0f)
            .next().mph(60).seconds(7.5f)
            .next().mph(100).seconds(12.2f);
        perf.next().octaneRating((short) 99).accelerationCount(3)
            .next().mph(30).seconds(3.8f)
            .next().mph(60).seconds(7.1f)
            .next().mph(100).seconds(11.8f);
        car.putManufacturer(MAKE, 0, MAKE.length);
        car.putModel(MODEL, 0, MODEL.length);
        return s.headerEncoder.encodedLength() + car.encodedLength();
    }

    static int refDecode(final Ref s) {
        final uk.co.real_logic.sbe.benchmarks.MessageHeaderDecoder header = s.headerDecoder;
        final uk.co.real_logic.sbe.benchmarks.CarDecoder car = s.decoder;
        final byte[] temp = s.temp;
        header.wrap(s.decodeBuffer, 0);
        car.wrap(s.decodeBuffer, header.encodedLength(), header.blockLength(), header.version());
        int sum = 0;
        sum += (int) car.serialNumber();
        sum += car.modelYear();
        sum += car.available().value();
        sum += car.code().value();
        for (int i = 0, size = uk.co.real_logic.sbe.benchmarks.CarDecoder.someNumbersLength(); i < size; i++) {
            sum += car.someNumbers(i);
        }
        sum += car.getVehicleCode(temp, 0);
        final uk.co.real_logic.sbe.benchmarks.OptionalExtrasDecoder extras = car.extras();
        sum += extras.cruiseControl() ? 1 : 0;
        sum += extras.sportsPack() ? 1 : 0;
        sum += extras.sunRoof() ? 1 : 0;
        final uk.co.real_logic.sbe.benchmarks.EngineDecoder engine = car.engine();
        sum += engine.capacity();
        sum += engine.numCylinders();
        sum += engine.maxRpm();
        sum += engine.getManufacturerCode(temp, 0);
        sum += engine.getFuel(temp, 0, temp.length);
        for (final uk.co.real_logic.sbe.benchmarks.CarDecoder.FuelFiguresDecoder f : car.fuelFigures()) {
            sum += f.speed();
            sum += (int) f.mpg();
        }
        for (final uk.co.real_logic.sbe.benchmarks.CarDecoder.PerformanceFiguresDecoder p : car.performanceFigures()) {
            sum += p.octaneRating();
            for (final uk.co.real_logic.sbe.benchmarks.CarDecoder.PerformanceFiguresDecoder.AccelerationDecoder a : p.acceleration()) {
                sum += a.mph();
                sum += (int) a.seconds();
            }
        }
        sum += car.getManufacturer(temp, 0, temp.length);
        sum += car.getModel(temp, 0, temp.length);
        return sum;
    }

    static int kitEncode(final Kit s, final UnsafeBuffer buffer) {
        final sbekit.bench.car.CarEncoder car = s.encoder;
        car.wrap(buffer, 0)
            .code(sbekit.bench.car.Model.A)
            .modelYear(2005)
            .serialNumber(12345)
            .available(sbekit.bench.car.BooleanType.T)
            .putVehicleCode(VEHICLE_CODE, 0, VEHICLE_CODE.length);
        for (int i = 0, size = sbekit.bench.car.CarDecoder.someNumbersLength(); i < size; i++) {
            car.someNumbers(i, i);
        }
        car.extras().clear().sportsPack(true).sunRoof(true);
        car.engine().capacity(4200).numCylinders((short) 8).putManufacturerCode(ENG_MAN_CODE, 0, ENG_MAN_CODE.length);
        final sbekit.bench.car.CarEncoder.CarFuelFiguresEncoder fuel = car.fuelFigures();
        fuel.next().speed(30).mpg(35.9f);
        fuel.next().speed(55).mpg(49.0f);
        fuel.next().speed(75).mpg(40.0f);
        final sbekit.bench.car.CarEncoder.CarPerformanceFiguresEncoder perf = car.performanceFigures();
        perf.next().octaneRating((short) 95).acceleration()
            .next().mph(30).seconds(4.0f)
            .next().mph(60).seconds(7.5f)
            .next().mph(100).seconds(12.2f);
        perf.next().octaneRating((short) 99).acceleration()
            .next().mph(30).seconds(3.8f)
            .next().mph(60).seconds(7.1f)
            .next().mph(100).seconds(11.8f);
        car.manufacturer(MAKE, 0, MAKE.length);
        car.model(MODEL, 0, MODEL.length);
        return car.encodedLength();
    }

    static int kitDecode(final Kit s) {
        final sbekit.bench.car.CarDecoder car = s.decoder;
        final byte[] temp = s.temp;
        car.wrap(s.decodeBuffer, 0);
        int sum = 0;
        sum += (int) car.serialNumber();
        sum += car.modelYear();
        sum += car.availableRaw();
        sum += car.codeRaw();
        for (int i = 0, size = sbekit.bench.car.CarDecoder.someNumbersLength(); i < size; i++) {
            sum += car.someNumbers(i);
        }
        sum += car.getVehicleCode(temp, 0);
        final sbekit.bench.car.OptionalExtrasDecoder extras = car.extras();
        sum += extras.cruiseControl() ? 1 : 0;
        sum += extras.sportsPack() ? 1 : 0;
        sum += extras.sunRoof() ? 1 : 0;
        final sbekit.bench.car.EngineDecoder engine = car.engine();
        sum += engine.capacity();
        sum += engine.numCylinders();
        sum += engine.maxRpm();
        sum += engine.getManufacturerCode(temp, 0);
        sum += engine.fuel().length();
        for (final sbekit.bench.car.CarDecoder.CarFuelFiguresDecoder f : car.fuelFigures()) {
            sum += f.speed();
            sum += (int) f.mpg();
        }
        for (final sbekit.bench.car.CarDecoder.CarPerformanceFiguresDecoder p : car.performanceFigures()) {
            sum += p.octaneRating();
            for (final sbekit.bench.car.CarDecoder.CarPerformanceFiguresAccelerationDecoder a : p.acceleration()) {
                sum += a.mph();
                sum += (int) a.seconds();
            }
        }
        sum += car.getManufacturer(temp, 0, temp.length);
        sum += car.getModel(temp, 0, temp.length);
        return sum;
    }
}
