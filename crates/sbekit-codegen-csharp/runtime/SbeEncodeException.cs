namespace __NAMESPACE__
{
    /// <summary>What an encoder refused.</summary>
    public enum SbeEncodeErrorKind
    {
        /// <summary>The buffer cannot hold the message.</summary>
        BufferTooSmall,
        /// <summary>More entries than the group's count slot allows.</summary>
        CountTooLarge,
        /// <summary>A value longer than its field or length slot allows.</summary>
        ValueTooLong,
        /// <summary>A group or var-data section written after a later one.</summary>
        OutOfOrder,
        /// <summary>An entry added to a group the version written does not have.</summary>
        NotInVersion,
    }

    /// <summary>A message an encoder could not write: what (<see cref="Kind"/>) and where (<see cref="Path"/>).</summary>
    public sealed class SbeEncodeException : System.Exception
    {
        /// <summary>An error of <paramref name="kind"/> in element <paramref name="path"/>.</summary>
        public SbeEncodeException(SbeEncodeErrorKind kind, string path)
            : base(path + ": " + Text(kind))
        {
            Kind = kind;
            Path = path;
        }

        /// <summary>What went wrong.</summary>
        public SbeEncodeErrorKind Kind { get; }

        /// <summary>Element path (<c>Car.fuelFigures</c>).</summary>
        public string Path { get; }

        /// <summary>The kind's name as sbekit prints it (<c>bufferTooSmall</c>, ...).</summary>
        public static string Text(SbeEncodeErrorKind kind)
        {
            switch (kind)
            {
                case SbeEncodeErrorKind.BufferTooSmall: return "bufferTooSmall";
                case SbeEncodeErrorKind.CountTooLarge: return "countTooLarge";
                case SbeEncodeErrorKind.ValueTooLong: return "valueTooLong";
                case SbeEncodeErrorKind.OutOfOrder: return "outOfOrder";
                default: return "notInVersion";
            }
        }
    }
}
