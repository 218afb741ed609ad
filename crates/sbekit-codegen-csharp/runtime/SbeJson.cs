namespace __NAMESPACE__
{
    using System.Globalization;
    using System.Text;

    /// <summary>
    /// JSON text as <c>sbekit decode</c> prints it: integers in their type's sign and width,
    /// floats as the shortest decimal that reads back the same, without an exponent
    /// (<c>null</c> when not finite), and text kept as UTF-8 only where the field declares UTF-8
    /// and the bytes are valid UTF-8, otherwise one code point per byte (Latin-1), so that no
    /// byte is lost.
    /// </summary>
    public static class SbeJson
    {
        private const string Hex = "0123456789abcdef";

        /// <summary>Appends a signed integer (digits written directly: no culture, no allocation).</summary>
        public static void AppendLong(StringBuilder sb, long v)
        {
            if (v < 0)
            {
                sb.Append('-');
                AppendULong(sb, unchecked((ulong)(-(v + 1)) + 1UL));
            }
            else
            {
                AppendULong(sb, (ulong)v);
            }
        }

        /// <summary>Appends an unsigned integer.</summary>
        public static void AppendULong(StringBuilder sb, ulong v)
        {
            ulong div = 1;
            while (v / div >= 10)
            {
                div *= 10;
            }
            while (div > 0)
            {
                sb.Append((char)('0' + (int)(v / div % 10)));
                div /= 10;
            }
        }

        /// <summary>Appends a float, or <c>null</c> when it is not finite.</summary>
        public static void AppendFloat(StringBuilder sb, float v)
        {
            if (float.IsNaN(v) || float.IsInfinity(v))
            {
                sb.Append("null");
                return;
            }
            AppendShortest(sb, v, true);
        }

        /// <summary>Appends a double, or <c>null</c> when it is not finite.</summary>
        public static void AppendDouble(StringBuilder sb, double v)
        {
            if (double.IsNaN(v) || double.IsInfinity(v))
            {
                sb.Append("null");
                return;
            }
            AppendShortest(sb, v, false);
        }

        // The fewest significant digits (1 to 17) whose correctly rounded decimal reads back as
        // `v` (as a float when `single`): "R" is not shortest on .NET Framework and Mono.
        private static void AppendShortest(StringBuilder sb, double v, bool single)
        {
            if (v == 0)
            {
                sb.Append(System.BitConverter.DoubleToInt64Bits(v) < 0 ? "-0" : "0");
                return;
            }
            string e = null;
            for (int p = 1; p <= 17; p++)
            {
                e = v.ToString("E" + (p - 1).ToString(CultureInfo.InvariantCulture), CultureInfo.InvariantCulture);
                double back = double.Parse(e, NumberStyles.Float, CultureInfo.InvariantCulture);
                if (single ? (float)back == (float)v : back == v)
                {
                    break;
                }
            }
            // e is "-d.dddE+xxx": digits and exponent, written out without the exponent.
            int i = 0;
            if (e[0] == '-')
            {
                sb.Append('-');
                i = 1;
            }
            int ePos = e.IndexOf('E');
            var digits = new StringBuilder();
            for (int k = i; k < ePos; k++)
            {
                if (e[k] != '.')
                {
                    digits.Append(e[k]);
                }
            }
            while (digits.Length > 1 && digits[digits.Length - 1] == '0')
            {
                digits.Length--;
            }
            int exp = int.Parse(e.Substring(ePos + 1), NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture);
            int n = digits.Length;
            if (exp < 0)
            {
                sb.Append("0.");
                for (int k = 0; k < -exp - 1; k++)
                {
                    sb.Append('0');
                }
                sb.Append(digits);
            }
            else if (exp + 1 >= n)
            {
                sb.Append(digits);
                for (int k = 0; k < exp + 1 - n; k++)
                {
                    sb.Append('0');
                }
            }
            else
            {
                sb.Append(digits.ToString(0, exp + 1)).Append('.').Append(digits.ToString(exp + 1, n - exp - 1));
            }
        }

        /// <summary>Appends one char value as a JSON string (one character, NUL included).</summary>
        public static void AppendChar(StringBuilder sb, byte c)
        {
            sb.Append('"');
            AppendByte(sb, c);
            sb.Append('"');
        }

        /// <summary>Appends <paramref name="length"/> bytes at <paramref name="index"/> as a JSON string.</summary>
        public static void AppendText(StringBuilder sb, byte[] buffer, int index, int length, bool utf8)
        {
            sb.Append('"');
            if (utf8 && ValidUtf8(buffer, index, length))
            {
                int i = index;
                int end = index + length;
                while (i < end)
                {
                    int c = buffer[i];
                    if (c < 0x80)
                    {
                        AppendByte(sb, c);
                        i++;
                        continue;
                    }
                    int n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
                    int cp = c & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
                    for (int k = 1; k < n; k++)
                    {
                        cp = (cp << 6) | (buffer[i + k] & 0x3F);
                    }
                    if (cp >= 0x10000)
                    {
                        cp -= 0x10000;
                        sb.Append((char)(0xD800 + (cp >> 10))).Append((char)(0xDC00 + (cp & 0x3FF)));
                    }
                    else
                    {
                        sb.Append((char)cp);
                    }
                    i += n;
                }
            }
            else
            {
                for (int i = index; i < index + length; i++)
                {
                    AppendByte(sb, buffer[i]);
                }
            }
            sb.Append('"');
        }

        /// <summary>Appends a fixed char array's text: up to its first NUL.</summary>
        public static void AppendFixedText(StringBuilder sb, byte[] buffer, int index, int length, bool utf8)
        {
            AppendText(sb, buffer, index, UntilNul(buffer, index, length), utf8);
        }

        /// <summary>The length of a fixed char array's text: up to its first NUL.</summary>
        public static int UntilNul(byte[] buffer, int index, int length)
        {
            int k = 0;
            while (k < length && buffer[index + k] != 0)
            {
                k++;
            }
            return k;
        }

        private static void AppendByte(StringBuilder sb, int c)
        {
            if (c >= 0x20 && c != '"' && c != '\\')
            {
                sb.Append((char)c);
                return;
            }
            switch (c)
            {
                case '"':
                    sb.Append("\\\"");
                    break;
                case '\\':
                    sb.Append("\\\\");
                    break;
                case '\n':
                    sb.Append("\\n");
                    break;
                case '\r':
                    sb.Append("\\r");
                    break;
                case '\t':
                    sb.Append("\\t");
                    break;
                case 0x08:
                    sb.Append("\\b");
                    break;
                case 0x0c:
                    sb.Append("\\f");
                    break;
                default:
                    sb.Append("\\u00").Append(Hex[c >> 4]).Append(Hex[c & 0xF]);
                    break;
            }
        }

        /// <summary>True if the bytes are valid UTF-8 (no overlong forms, surrogates or values above U+10FFFF).</summary>
        public static bool ValidUtf8(byte[] buffer, int index, int length)
        {
            int i = 0;
            while (i < length)
            {
                int c = buffer[index + i];
                if (c < 0x80)
                {
                    i++;
                    continue;
                }
                int len;
                int cp;
                if (c >= 0xC2 && c <= 0xDF)
                {
                    len = 2;
                    cp = c & 0x1F;
                }
                else if (c >= 0xE0 && c <= 0xEF)
                {
                    len = 3;
                    cp = c & 0x0F;
                }
                else if (c >= 0xF0 && c <= 0xF4)
                {
                    len = 4;
                    cp = c & 0x07;
                }
                else
                {
                    return false;
                }
                if (length - i < len)
                {
                    return false;
                }
                for (int k = 1; k < len; k++)
                {
                    int d = buffer[index + i + k];
                    if ((d & 0xC0) != 0x80)
                    {
                        return false;
                    }
                    cp = (cp << 6) | (d & 0x3F);
                }
                if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)))
                    || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
                {
                    return false;
                }
                i += len;
            }
            return true;
        }

        /// <summary>Latin-1 text: one char per byte.</summary>
        public static string Latin1(byte[] buffer, int index, int length)
        {
            var c = new char[length];
            for (int i = 0; i < length; i++)
            {
                c[i] = (char)buffer[index + i];
            }
            return new string(c);
        }
    }
}
