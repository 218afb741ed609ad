// The reference side of the owned-value interop test (crates/sbekit-parity, tests/dto_interop.rs).
// Compiled at test time with `javac -cp sbe-all-1.38.1.jar`; one JVM serves a whole run.
//
//   java DtoInterop (<schema.xml> <dir> <name>...)...
//
// For each schema, in <dir>: generates the reference's Java codecs and its Java DTOs
// (`uk.co.real_logic.sbe.generation.java.JavaDtos`) into <dir>/dto-src, compiles them into
// <dir>/dto-classes, then for each <name>: reads <dir>/<name>.bin (u32le-framed messages, header
// included), decodes each message into the reference's DTO (`XDto.decodeFrom`, with the header's
// block length and version) and writes it again with the DTO (`XDto.bytesWithHeader`) to
// <dir>/<name>.refdto.bin, same framing (an empty frame, and a line on stderr, for a message
// the DTOs fail on). Prints `name messages failures` per file.
import java.io.*;
import java.lang.reflect.*;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.*;
import java.util.*;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import uk.co.real_logic.sbe.SbeTool;
import uk.co.real_logic.sbe.generation.java.JavaUtil;
import uk.co.real_logic.sbe.ir.*;
import uk.co.real_logic.sbe.xml.IrGenerator;
import uk.co.real_logic.sbe.xml.MessageSchema;

public final class DtoInterop
{
    public static void main(final String[] args) throws Exception
    {
        int i = 0;
        while (i < args.length)
        {
            final String schema = args[i++];
            final Path dir = Paths.get(args[i++]);
            final List<String> names = new ArrayList<>();
            while (i < args.length && !args[i].endsWith(".xml"))
            {
                names.add(args[i++]);
            }
            schema(schema, dir, names);
        }
    }

    private static void schema(final String schemaPath, final Path dir, final List<String> names) throws Exception
    {
        final MessageSchema schema = SbeTool.parseSchema(schemaPath);
        final Ir ir = new IrGenerator().generate(schema, null);
        final Path src = dir.resolve("dto-src");
        final Path classes = dir.resolve("dto-classes");
        Files.createDirectories(src);
        Files.createDirectories(classes);
        SbeTool.generate(ir, src.toString(), "Java");
        SbeTool.generate(ir, src.toString(), "uk.co.real_logic.sbe.generation.java.JavaDtos");
        GenParity.compile(src, classes);
        try (URLClassLoader loader = new URLClassLoader(
            new URL[]{ classes.toUri().toURL() }, DtoInterop.class.getClassLoader()))
        {
            final String ns = ir.applicableNamespace();
            final Map<Integer, Class<?>> dtos = new HashMap<>();
            for (final List<Token> message : ir.messages())
            {
                final Token begin = message.get(0);
                dtos.put((int)begin.id(), loader.loadClass(ns + "." + JavaUtil.formatClassName(begin.name()) + "Dto"));
            }
            final Class<?> headerClass = loader.loadClass(ns + ".MessageHeaderDecoder");
            for (final String name : names)
            {
                run(dir, name, dtos, headerClass);
            }
        }
    }

    private static void run(final Path dir, final String name, final Map<Integer, Class<?>> dtos, final Class<?> headerClass)
        throws Exception
    {
        final byte[] in = Files.readAllBytes(dir.resolve(name + ".bin"));
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final Object header = headerClass.getConstructor().newInstance();
        final Method wrap = headerClass.getMethod("wrap", DirectBuffer.class, int.class);
        int at = 0;
        int count = 0;
        int failures = 0;
        while (at + 4 <= in.length)
        {
            final int n = ByteBuffer.wrap(in, at, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
            final byte[] msg = Arrays.copyOfRange(in, at + 4, at + 4 + n);
            at += 4 + n;
            count++;
            byte[] again = new byte[0];
            try
            {
                final UnsafeBuffer buffer = new UnsafeBuffer(msg);
                wrap.invoke(header, buffer, 0);
                final int templateId = ((Number)headerClass.getMethod("templateId").invoke(header)).intValue();
                final int blockLength = ((Number)headerClass.getMethod("blockLength").invoke(header)).intValue();
                final int version = ((Number)headerClass.getMethod("version").invoke(header)).intValue();
                final int headerLength = ((Number)headerClass.getMethod("encodedLength").invoke(header)).intValue();
                final Class<?> dto = dtos.get(templateId);
                final Object value = dto.getMethod("decodeFrom", DirectBuffer.class, int.class, int.class, int.class)
                    .invoke(null, buffer, headerLength, blockLength, version);
                again = (byte[])dto.getMethod("bytesWithHeader", dto).invoke(null, value);
            }
            catch (final Exception e)
            {
                failures++;
                final Throwable t = e instanceof InvocationTargetException ? e.getCause() : e;
                System.err.println(name + " #" + (count - 1) + ": " + t);
            }
            out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(again.length).array());
            out.write(again);
        }
        Files.write(dir.resolve(name + ".refdto.bin"), out.toByteArray());
        System.out.println(name + " " + count + " " + failures);
    }
}
