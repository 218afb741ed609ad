package __PACKAGE__;

/** What every message decoder of the package offers (the type {@link SbeDispatcher} returns). */
public interface SbeMessageDecoder {
    /** The message's template id. */
    int sbeTemplateId();

    /** The schema version the writer used (from the message header). */
    long actingVersion();

    /** Bytes from the start of the header to the end of the message. */
    int encodedLength();

    /** Appends the message as one line of JSON (no newline), as {@code sbekit decode} prints it. */
    StringBuilder appendJson(StringBuilder out);
}
