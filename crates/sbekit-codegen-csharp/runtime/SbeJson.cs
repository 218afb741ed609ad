namespace __NAMESPACE__
{
    using System.Globalization;
    using System.Text;

    /// <summary>
    /// JSON text as <c>sbekit decode</c> prints it: integers in their type's sign and width,
    /// floats as the shortest decimal that reads back the same, laid out as Ryu lays it out
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

        // The shortest digits that read back as `v` (and of those, the closest), as `sbekit
        // decode` (Ryu) prints them: Steele and White's free-format algorithm over exact big
        // integers. Mono's own "R" is not shortest and its 17-digit formatting and parsing are
        // not exact, so they cannot be used to search for the digits.
        private static void AppendShortest(StringBuilder sb, double v, bool single)
        {
            long bits;
            int mantBits, bias;
            if (single)
            {
                bits = SbeFloatBits.ToBits((float)v) & 0xFFFFFFFFL;
                mantBits = 23;
                bias = 127;
            }
            else
            {
                bits = System.BitConverter.DoubleToInt64Bits(v);
                mantBits = 52;
                bias = 1023;
            }
            bool negative = v < 0 || (v == 0 && (single ? (bits >> 31) != 0 : bits < 0));
            if (negative)
            {
                sb.Append('-');
            }
            if (v == 0)
            {
                sb.Append("0.0");
                return;
            }
            ulong mant = (ulong)bits & ((1UL << mantBits) - 1);
            int exp = (int)((ulong)bits >> mantBits) & (single ? 0xFF : 0x7FF);
            ulong f = exp == 0 ? mant : mant | (1UL << mantBits);
            int e = (exp == 0 ? 1 : exp) - bias - mantBits;
            bool even = (f & 1) == 0;
            bool asymmetric = mant == 0 && exp > 1;
            var r = new SbeBig();
            var sc = new SbeBig();
            var mp = new SbeBig();
            var mm = new SbeBig();
            r.Set(f);
            if (e >= 0)
            {
                mm.Set(1);
                mm.ShiftLeft(e);
                mp.Set(1);
                mp.ShiftLeft(asymmetric ? e + 1 : e);
                r.ShiftLeft(asymmetric ? e + 2 : e + 1);
                sc.Set(asymmetric ? 4UL : 2UL);
            }
            else
            {
                mm.Set(1);
                mp.Set(asymmetric ? 2UL : 1UL);
                r.ShiftLeft(asymmetric ? 2 : 1);
                sc.Set(1);
                sc.ShiftLeft(asymmetric ? 2 - e : 1 - e);
            }
            int k = (int)System.Math.Ceiling(System.Math.Log10(System.Math.Abs(v)));
            if (k >= 0)
            {
                for (int j = 0; j < k; j++)
                {
                    sc.MulSmall(10);
                }
            }
            else
            {
                for (int j = 0; j < -k; j++)
                {
                    r.MulSmall(10);
                    mp.MulSmall(10);
                    mm.MulSmall(10);
                }
            }
            var t = new SbeBig();
            // Fix the estimate: 10^(k-1) <= the upper boundary < 10^k.
            while (true)
            {
                t.SetSum(r, mp);
                int c = SbeBig.Compare(t, sc);
                if (c > 0 || (even && c == 0))
                {
                    sc.MulSmall(10);
                    k++;
                    continue;
                }
                t.MulSmall(10);
                c = SbeBig.Compare(t, sc);
                if (c < 0 || (!even && c == 0))
                {
                    r.MulSmall(10);
                    mp.MulSmall(10);
                    mm.MulSmall(10);
                    k--;
                    continue;
                }
                break;
            }
            var digits = new StringBuilder();
            while (true)
            {
                r.MulSmall(10);
                mp.MulSmall(10);
                mm.MulSmall(10);
                int d = 0;
                while (SbeBig.Compare(r, sc) >= 0)
                {
                    r.Sub(sc);
                    d++;
                }
                int cl = SbeBig.Compare(r, mm);
                bool low = cl < 0 || (even && cl == 0);
                t.SetSum(r, mp);
                int ch = SbeBig.Compare(t, sc);
                bool high = ch > 0 || (even && ch == 0);
                if (!low && !high)
                {
                    digits.Append((char)('0' + d));
                    continue;
                }
                if (low && high)
                {
                    t.SetSum(r, r);
                    int c2 = SbeBig.Compare(t, sc);
                    if (c2 > 0 || (c2 == 0 && (d & 1) == 1))
                    {
                        d++;
                    }
                }
                else if (high)
                {
                    d++;
                }
                digits.Append((char)('0' + d));
                break;
            }
            int kk = k;
            int n = digits.Length;
            int max = single ? 13 : 16;
            int min = single ? -6 : -5;
            if (kk >= n && kk <= max)
            {
                sb.Append(digits);
                sb.Append('0', kk - n);
                sb.Append(".0");
            }
            else if (0 < kk && kk <= max)
            {
                sb.Append(digits.ToString(0, kk)).Append('.').Append(digits.ToString(kk, n - kk));
            }
            else if (min < kk && kk <= 0)
            {
                sb.Append("0.");
                sb.Append('0', -kk);
                sb.Append(digits);
            }
            else
            {
                sb.Append(digits[0]);
                if (n > 1)
                {
                    sb.Append('.').Append(digits.ToString(1, n - 1));
                }
                sb.Append('e');
                AppendLong(sb, kk - 1);
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

    /// <summary>A small unsigned big integer for <see cref="SbeJson"/>'s float printing (.NET Standard's <c>BigInteger</c> is in an assembly Mono's <c>mcs</c> does not reference by default).</summary>
    internal sealed class SbeBig
    {
        private readonly uint[] w = new uint[80];
        private int n;

        /// <summary>Sets the value.</summary>
        internal void Set(ulong v)
        {
            System.Array.Clear(w, 0, w.Length);
            w[0] = (uint)v;
            w[1] = (uint)(v >> 32);
            n = w[1] != 0 ? 2 : 1;
        }

        /// <summary>Sets the value to <paramref name="a"/> + <paramref name="b"/>.</summary>
        internal void SetSum(SbeBig a, SbeBig b)
        {
            int m = System.Math.Max(a.n, b.n);
            ulong carry = 0;
            for (int i = 0; i < m; i++)
            {
                ulong s = (ulong)a.w[i] + b.w[i] + carry;
                w[i] = (uint)s;
                carry = s >> 32;
            }
            for (int i = m; i < w.Length; i++)
            {
                w[i] = 0;
            }
            w[m] = (uint)carry;
            n = carry != 0 ? m + 1 : m;
        }

        /// <summary>Multiplies by 2^<paramref name="bits"/>.</summary>
        internal void ShiftLeft(int bits)
        {
            int words = bits / 32;
            int rest = bits % 32;
            for (int i = n - 1 + words + 1; i >= 0; i--)
            {
                int src = i - words;
                uint hi = src >= 0 && src < n ? w[src] : 0;
                uint lo = src - 1 >= 0 && src - 1 < n ? w[src - 1] : 0;
                w[i] = rest == 0 ? hi : (hi << rest) | (lo >> (32 - rest));
            }
            n = n + words + 1;
            Trim();
        }

        /// <summary>Multiplies by <paramref name="m"/>.</summary>
        internal void MulSmall(uint m)
        {
            ulong carry = 0;
            for (int i = 0; i < n; i++)
            {
                ulong p = (ulong)w[i] * m + carry;
                w[i] = (uint)p;
                carry = p >> 32;
            }
            if (carry != 0)
            {
                w[n++] = (uint)carry;
            }
        }

        /// <summary>Subtracts <paramref name="b"/> (not larger than this).</summary>
        internal void Sub(SbeBig b)
        {
            long borrow = 0;
            for (int i = 0; i < n; i++)
            {
                long d = (long)w[i] - (i < b.n ? b.w[i] : 0) - borrow;
                borrow = d < 0 ? 1 : 0;
                w[i] = (uint)(d + (borrow << 32));
            }
            Trim();
        }

        /// <summary>-1, 0 or 1 as <paramref name="a"/> is less than, equal to or greater than <paramref name="b"/>.</summary>
        internal static int Compare(SbeBig a, SbeBig b)
        {
            if (a.n != b.n)
            {
                return a.n < b.n ? -1 : 1;
            }
            for (int i = a.n - 1; i >= 0; i--)
            {
                if (a.w[i] != b.w[i])
                {
                    return a.w[i] < b.w[i] ? -1 : 1;
                }
            }
            return 0;
        }

        private void Trim()
        {
            while (n > 1 && w[n - 1] == 0)
            {
                n--;
            }
        }
    }
}
