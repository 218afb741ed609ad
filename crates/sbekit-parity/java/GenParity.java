// The reference side of sbekit's generated-code parity test (crates/sbekit-parity,
// tests/generated.rs). Compiled at test time with `javac -cp sbe-all-1.38.1.jar`; one JVM serves
// a whole run.
//
//   java GenParity <seed> <per-message> (<schema.xml> <dir>)...
//
// For each schema, in <dir>:
//   1. generates the reference's Java codecs (SbeTool.generate, target language Java, default
//      options) into <dir>/src and compiles them in-process into <dir>/classes;
//   2. fills the generated *encoders* with random values, <per-message> messages per message of
//      the schema, driven by the schema's IR (what to set, in SBE order) and reflection (how: the
//      generated method names, from the reference's own JavaUtil naming rules); writes them to
//      <dir>/java.bin, each message (header included) preceded by its length as u32 little endian;
//   3. reads <dir>/java.bin, and <dir>/kit.bin, gen.bin and sbj.bin (messages written by sbekit,
//      same framing) where present, with the generated *decoders*, and writes one canonical JSON
//      line per message to <dir>/java.jsonl, kit.jsonl, gen.jsonl and sbj.jsonl.
//
// Canonical JSON (the Rust side builds the same from its decoders):
//   {"message": <name>, "fields": {<field>: <value>, ...}} or {"error": <text>}
//   integers and single chars: numbers (unsigned types unsigned); float/double: "f:<hex bits>" /
//   "d:<hex bits>" of the value widened to double ("f:NaN" / "d:NaN" for any NaN); optional values
//   equal to their null value, fields absent at the acting version: null; char arrays (up to the
//   first NUL) and var data: strings with one code point per byte; enums: the value's name, the raw
//   number when it has none (the decoders throw on unknown values), null for the null value; sets:
//   the names of the choices that are on; composites: objects; groups: arrays of objects.
import java.io.*;
import java.lang.reflect.*;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.stream.*;
import javax.tools.*;
import org.agrona.concurrent.UnsafeBuffer;
import uk.co.real_logic.sbe.PrimitiveType;
import uk.co.real_logic.sbe.SbeTool;
import uk.co.real_logic.sbe.generation.java.JavaUtil;
import uk.co.real_logic.sbe.ir.*;
import uk.co.real_logic.sbe.xml.IrGenerator;
import uk.co.real_logic.sbe.xml.MessageSchema;

public final class GenParity
{
    private final Ir ir;
    private final ClassLoader loader;
    private final SplittableRandom rnd;
    /** Composites newer than the acting version, reported null without calling their accessor. */
    private static long absentComposites;

    private GenParity(final Ir ir, final ClassLoader loader, final SplittableRandom rnd)
    {
        this.ir = ir;
        this.loader = loader;
        this.rnd = rnd;
    }

    public static void main(final String[] args) throws Exception
    {
        if (args.length < 4 || args.length % 2 != 0)
        {
            System.err.println("usage: GenParity <seed> <per-message> (<schema.xml> <dir>)...");
            System.exit(2);
        }
        final long seed = Long.parseLong(args[0]);
        final int perMessage = Integer.parseInt(args[1]);
        for (int i = 2; i < args.length; i += 2)
        {
            schema(args[i], Paths.get(args[i + 1]), seed + i, perMessage);
        }
        System.out.println("absent-composite-not-read " + absentComposites);
    }

    private static void schema(final String schemaPath, final Path dir, final long seed, final int perMessage)
        throws Exception
    {
        final MessageSchema schema = SbeTool.parseSchema(schemaPath);
        final Ir ir = new IrGenerator().generate(schema, null);
        final Path src = dir.resolve("src");
        final Path classes = dir.resolve("classes");
        Files.createDirectories(src);
        Files.createDirectories(classes);
        SbeTool.generate(ir, src.toString(), "Java");
        compile(src, classes);
        try (URLClassLoader loader = new URLClassLoader(
            new URL[]{ classes.toUri().toURL() }, GenParity.class.getClassLoader()))
        {
            final GenParity p = new GenParity(ir, loader, new SplittableRandom(seed));
            final ByteArrayOutputStream frames = new ByteArrayOutputStream();
            for (final List<Token> message : ir.messages())
            {
                for (int n = 0; n < perMessage; n++)
                {
                    final byte[] bytes = p.encode(message);
                    final byte[] len = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(bytes.length).array();
                    frames.write(len);
                    frames.write(bytes);
                }
            }
            Files.write(dir.resolve("java.bin"), frames.toByteArray());
            for (final String name : new String[]{ "java", "kit", "gen", "sbj" })
            {
                final Path in = dir.resolve(name + ".bin");
                if (Files.exists(in))
                {
                    p.decodeFile(in, dir.resolve(name + ".jsonl"));
                }
            }
        }
    }

    /** Compiles the Java sources under {@code src} into {@code classes} (also for DtoInterop). */
    static void compile(final Path src, final Path classes) throws IOException
    {
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        final List<String> files;
        try (Stream<Path> walk = Files.walk(src))
        {
            files = walk.filter(f -> f.toString().endsWith(".java")).map(Path::toString).collect(Collectors.toList());
        }
        final List<String> args = new ArrayList<>(List.of(
            "-nowarn", "-proc:none", "-cp", System.getProperty("java.class.path"), "-d", classes.toString()));
        args.addAll(files);
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        if (javac.run(null, null, err, args.toArray(new String[0])) != 0)
        {
            throw new IllegalStateException("javac failed on the generated codecs:\n" + err);
        }
    }

    // ---------------------------------------------------------------- encoding (random values)

    private Class<?> messageClass(final Token begin, final String suffix) throws ClassNotFoundException
    {
        return loader.loadClass(ir.applicableNamespace() + "." + JavaUtil.formatClassName(begin.name()) + suffix);
    }

    private byte[] encode(final List<Token> message) throws Exception
    {
        final Class<?> cls = messageClass(message.get(0), "Encoder");
        final Object encoder = cls.getConstructor().newInstance();
        final Method wrap = find(cls, "wrapAndApplyHeader", 3);
        final Object header = wrap.getParameterTypes()[2].getConstructor().newInstance();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1 << 16]);
        wrap.invoke(encoder, buffer, 0, header);
        fill(encoder, message, 1, message.size() - 1);
        final int headerLength = (int)header.getClass().getMethod("encodedLength").invoke(header);
        final int length = headerLength + (int)cls.getMethod("encodedLength").invoke(encoder);
        final byte[] out = new byte[length];
        buffer.getBytes(0, out);
        return out;
    }

    /** Sets the fields, groups and var data of tokens[from, to) on a message or group encoder. */
    private void fill(final Object encoder, final List<Token> tokens, final int from, final int to) throws Exception
    {
        for (int i = from; i < to; )
        {
            final Token t = tokens.get(i);
            switch (t.signal())
            {
                case BEGIN_FIELD:
                    setValue(encoder, prop(t), tokens.get(i + 1), tokens, i + 1, t);
                    break;
                case BEGIN_GROUP:
                {
                    final int count = rnd.nextInt(4);
                    final Object group = invoke(encoder, prop(t) + "Count", count);
                    final int dims = i + 1;
                    final int body = dims + tokens.get(dims).componentTokenCount();
                    for (int n = 0; n < count; n++)
                    {
                        invoke(group, "next");
                        fill(group, tokens, body, i + t.componentTokenCount() - 1);
                    }
                    break;
                }
                case BEGIN_VAR_DATA:
                {
                    final boolean text = varDataEncoding(tokens, i) != null;
                    final byte[] data = bytes(rnd.nextInt(17), text);
                    invoke(encoder, "put" + JavaUtil.formatClassName(t.name()), data, 0, data.length);
                    break;
                }
                default:
                    break;
            }
            i += t.componentTokenCount();
        }
    }

    /** Sets one field or composite member named `name` whose type token is tokens[at]. */
    private void setValue(
        final Object encoder, final String name, final Token type, final List<Token> tokens, final int at,
        final Token field) throws Exception
    {
        final boolean constant = type.isConstantEncoding() || (field != null && field.isConstantEncoding());
        if (constant)
        {
            return;
        }
        final boolean optional = type.isOptionalEncoding() || (field != null && field.isOptionalEncoding());
        switch (type.signal())
        {
            case ENCODING:
            {
                final int length = type.arrayLength();
                if (length == 1)
                {
                    final Method m = find(encoder.getClass(), name, 1);
                    m.invoke(encoder, scalar(m.getParameterTypes()[0], type.encoding(), optional));
                }
                else
                {
                    final Method m = find(encoder.getClass(), name, 2);
                    final Class<?> arg = m.getParameterTypes()[1];
                    if (type.encoding().primitiveType() == PrimitiveType.CHAR)
                    {
                        final byte[] text = bytes(rnd.nextInt(length + 1), true);
                        for (int k = 0; k < length; k++)
                        {
                            m.invoke(encoder, k, k < text.length ? text[k] : (byte)0);
                        }
                    }
                    else
                    {
                        for (int k = 0; k < length; k++)
                        {
                            m.invoke(encoder, k, scalar(arg, type.encoding(), false));
                        }
                    }
                }
                break;
            }
            case BEGIN_ENUM:
            {
                final Method m = find(encoder.getClass(), name, 1);
                final Object[] values = m.getParameterTypes()[0].getEnumConstants();
                final List<Object> choices = new ArrayList<>();
                for (final Object v : values)
                {
                    final String n = ((Enum<?>)v).name();
                    if (!n.equals("NULL_VAL") && !n.equals("SBE_UNKNOWN"))
                    {
                        choices.add(v);
                    }
                }
                Object v = choices.get(rnd.nextInt(choices.size()));
                if (optional && rnd.nextInt(6) == 0)
                {
                    for (final Object x : values)
                    {
                        if (((Enum<?>)x).name().equals("NULL_VAL"))
                        {
                            v = x;
                        }
                    }
                }
                m.invoke(encoder, v);
                break;
            }
            case BEGIN_SET:
            {
                final Object set = invoke(encoder, name);
                final int end = at + type.componentTokenCount() - 1;
                for (int k = at + 1; k < end; k++)
                {
                    invoke(set, prop(tokens.get(k)), rnd.nextBoolean());
                }
                break;
            }
            case BEGIN_COMPOSITE:
            {
                final Object composite = invoke(encoder, name);
                final int end = at + type.componentTokenCount() - 1;
                for (int k = at + 1; k < end; )
                {
                    final Token member = tokens.get(k);
                    setValue(composite, prop(member), member, tokens, k, null);
                    k += member.componentTokenCount();
                }
                break;
            }
            default:
                break;
        }
    }

    /** A random value of the type's valid range (sometimes an edge, sometimes null if optional). */
    private Object scalar(final Class<?> arg, final Encoding e, final boolean optional)
    {
        final PrimitiveType pt = e.primitiveType();
        final int pick = rnd.nextInt(10);
        if (pt == PrimitiveType.FLOAT || pt == PrimitiveType.DOUBLE)
        {
            double d;
            if (optional && pick == 0)
            {
                d = e.applicableNullValue().doubleValue();
            }
            else if (pick == 1)
            {
                d = e.applicableMinValue().doubleValue();
            }
            else if (pick == 2)
            {
                d = e.applicableMaxValue().doubleValue();
            }
            else if (pick == 3)
            {
                d = new double[]{ 0.0, -0.0, 1.0, 0.1, 1e-40, Double.POSITIVE_INFINITY }[rnd.nextInt(6)];
            }
            else
            {
                d = (rnd.nextDouble() - 0.5) * Math.pow(10, rnd.nextInt(12));
            }
            return arg == float.class ? (Object)(float)d : (Object)d;
        }
        long v;
        final long min = e.applicableMinValue().longValue();
        final long max = e.applicableMaxValue().longValue();
        if (optional && pick == 0)
        {
            v = e.applicableNullValue().longValue();
        }
        else if (pick == 1)
        {
            v = min;
        }
        else if (pick == 2)
        {
            v = max;
        }
        else
        {
            final long span = max - min + 1;
            v = span == 0 ? rnd.nextLong() : min + Long.remainderUnsigned(rnd.nextLong(), span);
        }
        if (arg == byte.class)
        {
            return (byte)v;
        }
        if (arg == short.class)
        {
            return (short)v;
        }
        if (arg == int.class)
        {
            return (int)v;
        }
        return v;
    }

    private byte[] bytes(final int length, final boolean text)
    {
        final byte[] b = new byte[length];
        for (int k = 0; k < length; k++)
        {
            b[k] = (byte)(text ? 0x20 + rnd.nextInt(0x5f) : rnd.nextInt(256));
        }
        return b;
    }

    private static String varDataEncoding(final List<Token> tokens, final int begin)
    {
        final int end = begin + tokens.get(begin).componentTokenCount();
        for (int k = begin; k < end; k++)
        {
            final Token t = tokens.get(k);
            if (t.signal() == Signal.ENCODING && t.name().equals("varData"))
            {
                final String ce = t.encoding().characterEncoding();
                return ce == null || ce.isEmpty() ? null : ce;
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- decoding (canonical JSON)

    private void decodeFile(final Path in, final Path out) throws Exception
    {
        final byte[] frames = Files.readAllBytes(in);
        final ByteBuffer framesBuf = ByteBuffer.wrap(frames).order(ByteOrder.LITTLE_ENDIAN);
        final Map<Integer, List<Token>> byId = new HashMap<>();
        for (final List<Token> m : ir.messages())
        {
            byId.put(m.get(0).id(), m);
        }
        try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8))
        {
            int at = 0;
            while (at + 4 <= frames.length)
            {
                final int length = framesBuf.getInt(at);
                at += 4;
                final byte[] message = Arrays.copyOfRange(frames, at, at + length);
                at += length;
                final StringBuilder sb = new StringBuilder();
                try
                {
                    decode(message, byId, sb);
                }
                catch (final Throwable ex)
                {
                    final Throwable cause = ex instanceof InvocationTargetException ? ex.getCause() : ex;
                    sb.setLength(0);
                    sb.append("{\"error\":");
                    str(sb, String.valueOf(cause));
                    sb.append('}');
                }
                w.write(sb.toString());
                w.write('\n');
            }
        }
    }

    private void decode(final byte[] message, final Map<Integer, List<Token>> byId, final StringBuilder sb)
        throws Exception
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(message);
        final Class<?> any = messageClass(ir.messages().iterator().next().get(0), "Decoder");
        final Method wrapAny = find(any, "wrapAndApplyHeader", 3);
        final Object header = wrapAny.getParameterTypes()[2].getConstructor().newInstance();
        invoke(header, "wrap", buffer, 0);
        final int templateId = ((Number)invoke(header, "templateId")).intValue();
        final List<Token> tokens = byId.get(templateId);
        if (tokens == null)
        {
            throw new IllegalStateException("no message with template id " + templateId);
        }
        final Class<?> cls = messageClass(tokens.get(0), "Decoder");
        final Object decoder = cls.getConstructor().newInstance();
        find(cls, "wrapAndApplyHeader", 3).invoke(decoder, buffer, 0, header);
        final int acting = ((Number)invoke(decoder, "actingVersion")).intValue();
        sb.append("{\"message\":");
        str(sb, tokens.get(0).name());
        sb.append(",\"fields\":");
        object(decoder, tokens, 1, tokens.size() - 1, acting, sb);
        sb.append('}');
    }

    /** The fields, groups and var data of tokens[from, to) read from a message or group decoder. */
    private void object(
        final Object decoder, final List<Token> tokens, final int from, final int to, final int acting,
        final StringBuilder sb) throws Exception
    {
        sb.append('{');
        boolean first = true;
        for (int i = from; i < to; )
        {
            final Token t = tokens.get(i);
            if (t.signal() == Signal.BEGIN_FIELD || t.signal() == Signal.BEGIN_GROUP ||
                t.signal() == Signal.BEGIN_VAR_DATA)
            {
                if (!first)
                {
                    sb.append(',');
                }
                first = false;
                str(sb, t.name());
                sb.append(':');
            }
            switch (t.signal())
            {
                case BEGIN_FIELD:
                    getValue(decoder, prop(t), tokens.get(i + 1), tokens, i + 1, t, t.version() > acting, sb);
                    break;
                case BEGIN_GROUP:
                {
                    final Object group = invoke(decoder, prop(t));
                    final int count = ((Number)invoke(group, "count")).intValue();
                    final int dims = i + 1;
                    final int body = dims + tokens.get(dims).componentTokenCount();
                    sb.append('[');
                    for (int n = 0; n < count; n++)
                    {
                        if (n > 0)
                        {
                            sb.append(',');
                        }
                        invoke(group, "next");
                        object(group, tokens, body, i + t.componentTokenCount() - 1, acting, sb);
                    }
                    sb.append(']');
                    break;
                }
                case BEGIN_VAR_DATA:
                {
                    final String cap = JavaUtil.formatClassName(t.name());
                    final int length = ((Number)invoke(decoder, prop(t) + "Length")).intValue();
                    final byte[] data = new byte[length];
                    invoke(decoder, "get" + cap, data, 0, length);
                    str(sb, new String(data, StandardCharsets.ISO_8859_1));
                    break;
                }
                default:
                    break;
            }
            i += t.componentTokenCount();
        }
        sb.append('}');
    }

    /** Reads one field or composite member named `name` whose type token is tokens[at]. */
    private void getValue(
        final Object decoder, final String name, final Token type, final List<Token> tokens, final int at,
        final Token field, final boolean absent, final StringBuilder sb) throws Exception
    {
        final boolean constant = type.isConstantEncoding() || (field != null && field.isConstantEncoding());
        final boolean optional = type.isOptionalEncoding() || (field != null && field.isOptionalEncoding());
        switch (type.signal())
        {
            case ENCODING:
            {
                final Encoding e = type.encoding();
                final boolean chars = e.primitiveType() == PrimitiveType.CHAR;
                final Method indexed = findOrNull(decoder.getClass(), name, 1, int.class);
                if (chars && indexed != null)
                {
                    // A char array (or character constant): its bytes up to the first NUL.
                    final Method len = findOrNull(decoder.getClass(), name + "Length", 0, null);
                    final int length = len != null ? ((Number)len.invoke(null)).intValue() : type.arrayLength();
                    final ByteArrayOutputStream b = new ByteArrayOutputStream();
                    for (int k = 0; k < length; k++)
                    {
                        final byte c = (byte)indexed.invoke(decoder, k);
                        if (c == 0)
                        {
                            break;
                        }
                        b.write(c);
                    }
                    if (length == 1 && type.isConstantEncoding())
                    {
                        // A single-char constant (its getters are those of a char array).
                        sb.append((int)(byte)indexed.invoke(decoder, 0) & 0xFF);
                    }
                    else if (absent && b.size() == 0)
                    {
                        sb.append("null");
                    }
                    else
                    {
                        str(sb, new String(b.toByteArray(), StandardCharsets.ISO_8859_1));
                    }
                }
                else if (indexed != null && type.arrayLength() > 1)
                {
                    sb.append('[');
                    for (int k = 0; k < type.arrayLength(); k++)
                    {
                        if (k > 0)
                        {
                            sb.append(',');
                        }
                        scalarOut(indexed.invoke(decoder, k), e, false, sb);
                    }
                    sb.append(']');
                }
                else
                {
                    final Object v = invoke(decoder, name);
                    if (v instanceof CharSequence && ((CharSequence)v).length() == 1)
                    {
                        // A single-char constant: its getter returns a one-character String.
                        sb.append((int)((CharSequence)v).charAt(0) & 0xFF);
                    }
                    else if (v instanceof CharSequence)
                    {
                        str(sb, v.toString());
                    }
                    else
                    {
                        scalarOut(v, e, optional || absent, sb);
                    }
                }
                break;
            }
            case BEGIN_ENUM:
            {
                Object v;
                try
                {
                    v = invoke(decoder, name);
                }
                catch (final InvocationTargetException ex)
                {
                    if (!(ex.getCause() instanceof IllegalArgumentException))
                    {
                        throw ex;
                    }
                    // The generated enum's get() throws on a raw value with no name.
                    v = null;
                }
                final String n = v == null ? null : ((Enum<?>)v).name();
                if (n != null && !n.equals("NULL_VAL") && !n.equals("SBE_UNKNOWN"))
                {
                    str(sb, n);
                }
                else if ("NULL_VAL".equals(n))
                {
                    sb.append("null");
                }
                else
                {
                    scalarOut(invoke(decoder, name + "Raw"), type.encoding(), false, sb);
                }
                break;
            }
            case BEGIN_SET:
            {
                final Object set = invoke(decoder, name);
                final int end = at + type.componentTokenCount() - 1;
                sb.append('[');
                boolean first = true;
                for (int k = at + 1; k < end; k++)
                {
                    if ((boolean)invoke(set, prop(tokens.get(k))))
                    {
                        if (!first)
                        {
                            sb.append(',');
                        }
                        first = false;
                        str(sb, tokens.get(k).name());
                    }
                }
                sb.append(']');
                break;
            }
            case BEGIN_COMPOSITE:
            {
                if (absent)
                {
                    // A composite newer than the acting version: the Java decoders have no version
                    // check for it (its members would be read from the buffer).
                    absentComposites++;
                    sb.append("null");
                    break;
                }
                final Object composite = invoke(decoder, name);
                final int end = at + type.componentTokenCount() - 1;
                sb.append('{');
                boolean first = true;
                for (int k = at + 1; k < end; )
                {
                    final Token member = tokens.get(k);
                    if (!first)
                    {
                        sb.append(',');
                    }
                    first = false;
                    str(sb, member.name());
                    sb.append(':');
                    getValue(composite, prop(member), member, tokens, k, null, false, sb);
                    k += member.componentTokenCount();
                }
                sb.append('}');
                break;
            }
            default:
                sb.append("null");
                break;
        }
    }

    private static void scalarOut(final Object v, final Encoding e, final boolean nullable, final StringBuilder sb)
    {
        final PrimitiveType pt = e.primitiveType();
        if (pt == PrimitiveType.FLOAT || pt == PrimitiveType.DOUBLE)
        {
            final double d = ((Number)v).doubleValue();
            if (nullable && Double.isNaN(d))
            {
                sb.append("null");
                return;
            }
            final String tag = pt == PrimitiveType.FLOAT ? "f:" : "d:";
            str(sb, tag + (Double.isNaN(d) ? "NaN" : Long.toHexString(Double.doubleToRawLongBits(d))));
            return;
        }
        final long raw = ((Number)v).longValue();
        final long masked;
        switch (pt)
        {
            case CHAR:
            case UINT8:
                masked = raw & 0xFFL;
                break;
            case UINT16:
                masked = raw & 0xFFFFL;
                break;
            case UINT32:
                masked = raw & 0xFFFFFFFFL;
                break;
            default:
                masked = raw;
                break;
        }
        if (nullable && masked == e.applicableNullValue().longValue() ||
            nullable && pt != PrimitiveType.UINT64 && masked == nullMasked(e))
        {
            sb.append("null");
            return;
        }
        sb.append(pt == PrimitiveType.UINT64 ? Long.toUnsignedString(masked) : Long.toString(masked));
    }

    private static long nullMasked(final Encoding e)
    {
        final long n = e.applicableNullValue().longValue();
        switch (e.primitiveType())
        {
            case CHAR:
            case UINT8:
                return n & 0xFFL;
            case UINT16:
                return n & 0xFFFFL;
            case UINT32:
                return n & 0xFFFFFFFFL;
            default:
                return n;
        }
    }

    // ---------------------------------------------------------------- reflection and JSON helpers

    private static String prop(final Token t)
    {
        return JavaUtil.formatPropertyName(t.name());
    }

    private static Method find(final Class<?> cls, final String name, final int arity)
    {
        final Method m = findOrNull(cls, name, arity, null);
        if (m == null)
        {
            throw new IllegalStateException(cls.getName() + " has no method " + name + "/" + arity);
        }
        return m;
    }

    /** A public method by name and arity (and first parameter type, if given); the most specific
     * one when overloaded (byte[] over DirectBuffer, String-free). */
    private static Method findOrNull(final Class<?> cls, final String name, final int arity, final Class<?> first)
    {
        Method best = null;
        for (final Method m : cls.getMethods())
        {
            if (!m.getName().equals(name) || m.getParameterCount() != arity)
            {
                continue;
            }
            final Class<?>[] p = m.getParameterTypes();
            if (first != null && p[0] != first)
            {
                continue;
            }
            if (arity == 1 && (p[0] == String.class || p[0] == CharSequence.class || p[0] == Appendable.class))
            {
                continue;
            }
            if (arity == 3 && name.startsWith("get") && p[0] != byte[].class)
            {
                continue;
            }
            if (arity == 3 && name.startsWith("put") && p[0] != byte[].class)
            {
                continue;
            }
            if (arity == 2 && name.startsWith("get"))
            {
                continue;
            }
            best = m;
        }
        return best;
    }

    private static Object invoke(final Object target, final String name, final Object... args) throws Exception
    {
        return find(target.getClass(), name, args.length).invoke(target, args);
    }

    private static void str(final StringBuilder sb, final String s)
    {
        sb.append('"');
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            if (c == '"' || c == '\\')
            {
                sb.append('\\').append(c);
            }
            else if (c < 0x20 || c == 0x7f)
            {
                sb.append(String.format("\\u%04x", (int)c));
            }
            else
            {
                sb.append(c);
            }
        }
        sb.append('"');
    }
}
