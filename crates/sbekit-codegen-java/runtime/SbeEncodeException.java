package __PACKAGE__;

/**
 * What an encoder refused: the buffer is too small, a group has more entries than its count
 * allows, a value is longer than its field or length slot allows, or a group or var-data
 * section was written after a later one. The message written so far is incomplete.
 */
public final class SbeEncodeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What an encoder refuses. */
    public enum Kind {
        /** The buffer is too small (and cannot expand). */
        BUFFER_TOO_SMALL("bufferTooSmall"),
        /** A group has more entries than its count slot allows. */
        COUNT_TOO_LARGE("countTooLarge"),
        /** Var data longer than its length slot allows, or text longer than its array. */
        VALUE_TOO_LONG("valueTooLong"),
        /** A group or var-data section written after a later one. */
        OUT_OF_ORDER("outOfOrder");

        private final String text;

        Kind(final String text) {
            this.text = text;
        }

        /** The kind's name as sbekit prints it. */
        public String text() {
            return text;
        }
    }

    private final Kind kind;
    private final String path;

    /** An error of {@code kind} in element {@code path}. */
    public SbeEncodeException(final Kind kind, final String path) {
        super(path + ": " + kind.text());
        this.kind = kind;
        this.path = path;
    }

    /** What went wrong. */
    public Kind kind() {
        return kind;
    }

    /** Element path. */
    public String path() {
        return path;
    }
}
