package __PACKAGE__;

import org.agrona.DirectBuffer;

/**
 * JSON text as {@code sbekit decode} prints it: integers in their type's sign and width, floats
 * that read back the same ({@code null} when not finite), and text kept as UTF-8 only where the
 * field declares UTF-8 and the bytes are valid UTF-8, otherwise one code point per byte
 * (Latin-1), so that no byte is lost.
 */
public final class SbeJson {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private SbeJson() {
    }

    /** Appends a float, or {@code null} when it is not finite. */
    public static void appendFloat(final StringBuilder out, final float v) {
        if (Float.isFinite(v)) {
            out.append(v);
        } else {
            out.append("null");
        }
    }

    /** Appends a double, or {@code null} when it is not finite. */
    public static void appendDouble(final StringBuilder out, final double v) {
        if (Double.isFinite(v)) {
            out.append(v);
        } else {
            out.append("null");
        }
    }

    /** Appends an unsigned 64-bit integer held in a {@code long}. */
    public static void appendUnsigned(final StringBuilder out, final long v) {
        if (v >= 0) {
            out.append(v);
        } else {
            out.append(Long.toUnsignedString(v));
        }
    }

    /** Appends one char value as a JSON string (one character, NUL included). */
    public static void appendChar(final StringBuilder out, final byte c) {
        out.append('"');
        appendByte(out, c & 0xFF);
        out.append('"');
    }

    /** Appends {@code length} bytes at {@code index} as a JSON string. */
    public static void appendText(
        final StringBuilder out, final DirectBuffer buffer, final int index, final int length, final boolean utf8) {
        out.append('"');
        if (utf8 && validUtf8(buffer, index, length)) {
            int i = index;
            final int end = index + length;
            while (i < end) {
                final int c = buffer.getByte(i) & 0xFF;
                if (c < 0x80) {
                    appendByte(out, c);
                    i++;
                    continue;
                }
                final int n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
                int cp = c & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
                for (int k = 1; k < n; k++) {
                    cp = (cp << 6) | (buffer.getByte(i + k) & 0x3F);
                }
                out.appendCodePoint(cp);
                i += n;
            }
        } else {
            for (int i = index; i < index + length; i++) {
                appendByte(out, buffer.getByte(i) & 0xFF);
            }
        }
        out.append('"');
    }

    /** Appends a fixed char array's text: up to its first NUL. */
    public static void appendFixedText(
        final StringBuilder out, final DirectBuffer buffer, final int index, final int length, final boolean utf8) {
        appendText(out, buffer, index, untilNul(buffer, index, length), utf8);
    }

    /** The length of a fixed char array's text: up to its first NUL. */
    public static int untilNul(final DirectBuffer buffer, final int index, final int length) {
        int k = 0;
        while (k < length && buffer.getByte(index + k) != 0) {
            k++;
        }
        return k;
    }

    private static void appendByte(final StringBuilder out, final int c) {
        if (c >= 0x20 && c != '"' && c != '\\') {
            out.append((char) c);
            return;
        }
        switch (c) {
            case '"':
                out.append("\\\"");
                break;
            case '\\':
                out.append("\\\\");
                break;
            case '\n':
                out.append("\\n");
                break;
            case '\r':
                out.append("\\r");
                break;
            case '\t':
                out.append("\\t");
                break;
            case 0x08:
                out.append("\\b");
                break;
            case 0x0c:
                out.append("\\f");
                break;
            default:
                out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
        }
    }

    /** True if the bytes are valid UTF-8 (no overlong forms, surrogates or values above U+10FFFF). */
    public static boolean validUtf8(final DirectBuffer buffer, final int index, final int length) {
        int i = 0;
        while (i < length) {
            final int c = buffer.getByte(index + i) & 0xFF;
            if (c < 0x80) {
                i++;
                continue;
            }
            final int len;
            int cp;
            if (c >= 0xC2 && c <= 0xDF) {
                len = 2;
                cp = c & 0x1F;
            } else if (c >= 0xE0 && c <= 0xEF) {
                len = 3;
                cp = c & 0x0F;
            } else if (c >= 0xF0 && c <= 0xF4) {
                len = 4;
                cp = c & 0x07;
            } else {
                return false;
            }
            if (length - i < len) {
                return false;
            }
            for (int k = 1; k < len; k++) {
                final int d = buffer.getByte(index + i + k) & 0xFF;
                if ((d & 0xC0) != 0x80) {
                    return false;
                }
                cp = (cp << 6) | (d & 0x3F);
            }
            if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)))
                || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))) {
                return false;
            }
            i += len;
        }
        return true;
    }
}
