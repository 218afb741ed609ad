package __PACKAGE__;

/**
 * A message a decoder's {@code wrap} refused: what was wrong ({@link #kind()}), the byte offset
 * it was found at, from the start of the message ({@link #offset()}), and the schema path of the
 * element ({@link #path()}, such as {@code Car.fuelFigures}). Thrown only by {@code wrap}; once a
 * message is wrapped its accessors cannot fail.
 */
public final class SbeDecodeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What a failed check reports. */
    public enum Kind {
        /** The buffer ends before the structure does. */
        TRUNCATED("truncated"),
        /** The header's schema id is not the schema's. */
        WRONG_SCHEMA_ID("wrongSchemaId"),
        /** The header's template id is not the message's (or no message has it). */
        WRONG_TEMPLATE_ID("wrongTemplateId"),
        /** A block length is shorter than the acting version's fields need. */
        BLOCK_LENGTH_TOO_SHORT("blockLengthTooShort"),
        /** A count or length is larger than its slot allows. */
        INVALID_DIMENSION("invalidDimension"),
        /** More entries of empty-block groups than the decoder's budget allows. */
        EMPTY_ENTRY_BUDGET("emptyEntryBudget");

        private final String text;

        Kind(final String text) {
            this.text = text;
        }

        /** The kind's name as sbekit prints it ({@code truncated}, {@code wrongSchemaId}, ...). */
        public String text() {
            return text;
        }
    }

    private final Kind kind;
    private final long offset;
    private final String path;

    /** An error of {@code kind} at byte {@code offset} of the message, in element {@code path}. */
    public SbeDecodeException(final Kind kind, final long offset, final String path) {
        super("at byte " + offset + " (" + path + "): " + kind.text());
        this.kind = kind;
        this.offset = offset;
        this.path = path;
    }

    /** What went wrong. */
    public Kind kind() {
        return kind;
    }

    /** Byte offset from the start of the message. */
    public long offset() {
        return offset;
    }

    /** Element path ({@code Car.fuelFigures}). */
    public String path() {
        return path;
    }
}
