// The reference side of sbekit's parity suite (crates/sbekit-parity). Compiled at test time with
// `javac -cp sbe-all-1.38.1.jar`; one JVM serves a whole run.
//
//   java Parity ir <schema.xml> <out.sbeir> [<schema.xml> <out.sbeir>]...
//       For each schema: the reference's parser and IrGenerator, written to <out.sbeir> with the
//       reference's IrEncoder (the same as -Dsbe.generate.ir=true). A schema that fails prints
//       "FAILED <schema>: <error>" on stderr; the others go on.
//   java Parity decode <manifest>
//       Each manifest line is "<ir.sbeir>\t<frames>\t<out.jsonl>": the frames file holds messages,
//       each preceded by its length as u32 little endian. Each message is decoded with the
//       reference's OtfHeaderDecoder + OtfMessageDecoder + JsonTokenListener, driven by the IR
//       read with the reference's IrDecoder; the output holds one line per message, the
//       listener's text with its layout newlines removed, or "!ERROR <exception>".
import java.io.*;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import org.agrona.concurrent.UnsafeBuffer;
import uk.co.real_logic.sbe.SbeTool;
import uk.co.real_logic.sbe.ir.*;
import uk.co.real_logic.sbe.json.JsonTokenListener;
import uk.co.real_logic.sbe.otf.*;
import uk.co.real_logic.sbe.xml.IrGenerator;
import uk.co.real_logic.sbe.xml.MessageSchema;

public final class Parity
{
    public static void main(final String[] args) throws Exception
    {
        if (args.length % 2 == 1 && "ir".equals(args[0]))
        {
            ir(Arrays.copyOfRange(args, 1, args.length));
        }
        else if (args.length == 2 && "decode".equals(args[0]))
        {
            decode(args[1]);
        }
        else
        {
            System.err.println("usage: Parity ir (<schema.xml> <out.sbeir>)... | Parity decode <manifest>");
            System.exit(2);
        }
    }

    private static void ir(final String[] pairs)
    {
        int failed = 0;
        for (int i = 0; i < pairs.length; i += 2)
        {
            final String schemaPath = pairs[i];
            try
            {
                final MessageSchema schema = SbeTool.parseSchema(schemaPath);
                final Ir ir = new IrGenerator().generate(schema, null);
                try (IrEncoder encoder = new IrEncoder(pairs[i + 1], ir))
                {
                    encoder.encode();
                }
            }
            catch (final Throwable ex)
            {
                failed++;
                System.err.println("FAILED " + schemaPath + ": " + ex);
            }
        }
        System.exit(failed == 0 ? 0 : 1);
    }

    private static void decode(final String manifest) throws Exception
    {
        final Map<String, Ir> irs = new HashMap<>();
        for (final String line : Files.readAllLines(Paths.get(manifest), StandardCharsets.UTF_8))
        {
            if (line.isEmpty())
            {
                continue;
            }
            final String[] parts = line.split("\t");
            Ir ir = irs.get(parts[0]);
            if (ir == null)
            {
                try (IrDecoder decoder = new IrDecoder(parts[0]))
                {
                    ir = decoder.decode();
                }
                irs.put(parts[0], ir);
            }
            final OtfHeaderDecoder header = new OtfHeaderDecoder(ir.headerStructure());
            final byte[] frames = Files.readAllBytes(Paths.get(parts[1]));
            final ByteBuffer framesBuf = ByteBuffer.wrap(frames).order(ByteOrder.LITTLE_ENDIAN);
            try (Writer out = new BufferedWriter(new OutputStreamWriter(
                new FileOutputStream(parts[2]), StandardCharsets.UTF_8)))
            {
                int at = 0;
                while (at + 4 <= frames.length)
                {
                    final int length = framesBuf.getInt(at);
                    at += 4;
                    final byte[] message = Arrays.copyOfRange(frames, at, at + length);
                    at += length;
                    out.write(decodeOne(ir, header, message));
                    out.write('\n');
                }
            }
        }
    }

    private static String decodeOne(final Ir ir, final OtfHeaderDecoder header, final byte[] message)
    {
        final String plain = decodeOne(ir, header, message, 0);
        if (!plain.startsWith("!ERROR java.lang.IndexOutOfBoundsException"))
        {
            return plain;
        }
        // The reference reads constant enum fields from the buffer, past the end of a message
        // that ends with one: retry with zero bytes after it, and say so.
        final String slack = decodeOne(ir, header, message, 64);
        return slack.startsWith("!ERROR") ? plain : "!SLACK " + slack;
    }

    private static String decodeOne(
        final Ir ir, final OtfHeaderDecoder header, final byte[] message, final int slack)
    {
        try
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(Arrays.copyOf(message, message.length + slack));
            final int templateId = header.getTemplateId(buffer, 0);
            final int actingVersion = header.getSchemaVersion(buffer, 0);
            final int blockLength = header.getBlockLength(buffer, 0);
            final List<Token> tokens = ir.getMessage(templateId);
            if (tokens == null)
            {
                return "!ERROR no message with template id " + templateId;
            }
            final StringBuilder sb = new StringBuilder();
            OtfMessageDecoder.decode(
                buffer, header.encodedLength(), actingVersion, blockLength, tokens, new JsonTokenListener(sb));
            return sb.toString().replace("\n", "");
        }
        catch (final Throwable ex)
        {
            return ("!ERROR " + ex).replace("\n", " ");
        }
    }
}
