namespace __NAMESPACE__
{
    /// <summary>What a failed decoder check reports.</summary>
    public enum SbeDecodeErrorKind
    {
        /// <summary>The buffer ends before the structure does.</summary>
        Truncated,
        /// <summary>The header's schema id is not the schema's.</summary>
        WrongSchemaId,
        /// <summary>The header's template id is not the message's (or no message has it).</summary>
        WrongTemplateId,
        /// <summary>A block length is shorter than the acting version's fields need.</summary>
        BlockLengthTooShort,
        /// <summary>A count or length is larger than its slot allows.</summary>
        InvalidDimension,
        /// <summary>More entries of empty-block groups than the decoder's budget allows.</summary>
        EmptyEntryBudget,
    }

    /// <summary>
    /// A message a decoder's <c>Wrap</c> refused: what was wrong (<see cref="Kind"/>), the byte
    /// offset it was found at, from the start of the message (<see cref="Offset"/>), and the
    /// schema path of the element (<see cref="Path"/>, such as <c>Car.fuelFigures</c>). Thrown
    /// only by <c>Wrap</c>; once a message is wrapped its accessors cannot fail.
    /// </summary>
    public sealed class SbeDecodeException : System.Exception
    {
        /// <summary>An error of <paramref name="kind"/> at byte <paramref name="offset"/> of the message, in element <paramref name="path"/>.</summary>
        public SbeDecodeException(SbeDecodeErrorKind kind, long offset, string path)
            : base("at byte " + offset.ToString(System.Globalization.CultureInfo.InvariantCulture) + " (" + path + "): " + Text(kind))
        {
            Kind = kind;
            Offset = offset;
            Path = path;
        }

        /// <summary>What went wrong.</summary>
        public SbeDecodeErrorKind Kind { get; }

        /// <summary>Byte offset from the start of the message.</summary>
        public long Offset { get; }

        /// <summary>Element path (<c>Car.fuelFigures</c>).</summary>
        public string Path { get; }

        /// <summary>The kind's name as sbekit prints it (<c>truncated</c>, <c>wrongSchemaId</c>, ...).</summary>
        public static string Text(SbeDecodeErrorKind kind)
        {
            switch (kind)
            {
                case SbeDecodeErrorKind.Truncated: return "truncated";
                case SbeDecodeErrorKind.WrongSchemaId: return "wrongSchemaId";
                case SbeDecodeErrorKind.WrongTemplateId: return "wrongTemplateId";
                case SbeDecodeErrorKind.BlockLengthTooShort: return "blockLengthTooShort";
                case SbeDecodeErrorKind.InvalidDimension: return "invalidDimension";
                default: return "emptyEntryBudget";
            }
        }
    }
}
