namespace __NAMESPACE__
{
    /// <summary>
    /// What the owned values (the <c>...Dto</c> classes) share: element-wise equality, hashes
    /// and text of the arrays and lists they hold (an array's or list's own <c>Equals</c>
    /// compares references).
    /// </summary>
    public static class SbeDto
    {
        /// <summary>True if <paramref name="a"/> and <paramref name="b"/> hold equal elements, in order (floats: the same value, NaNs equal).</summary>
        public static bool Equal<T>(System.Collections.Generic.IList<T> a, System.Collections.Generic.IList<T> b)
        {
            if (ReferenceEquals(a, b)) return true;
            if (a == null || b == null || a.Count != b.Count) return false;
            var eq = System.Collections.Generic.EqualityComparer<T>.Default;
            for (int i = 0; i < a.Count; i++)
            {
                if (!eq.Equals(a[i], b[i])) return false;
            }
            return true;
        }

        /// <summary>A hash of the elements of <paramref name="a"/> (equal sequences hash alike).</summary>
        public static int Hash<T>(System.Collections.Generic.IList<T> a)
        {
            if (a == null) return 0;
            var eq = System.Collections.Generic.EqualityComparer<T>.Default;
            int h = 1;
            for (int i = 0; i < a.Count; i++)
            {
                h = unchecked(31 * h + eq.GetHashCode(a[i]));
            }
            return h;
        }

        /// <summary>The elements of <paramref name="a"/> as text: <c>[1, 2, 3]</c>.</summary>
        public static string Text<T>(System.Collections.Generic.IList<T> a)
        {
            return a == null ? "null" : "[" + string.Join(", ", a) + "]";
        }
    }
}
