namespace __NAMESPACE__
{
    /// <summary>What every message decoder offers (the type <c>SbeDispatcher.Wrap</c> returns).</summary>
    public interface ISbeMessageDecoder
    {
        /// <summary>The message's template id.</summary>
        int SbeTemplateId();

        /// <summary>The schema version the writer used (from the message header).</summary>
        long ActingVersion();

        /// <summary>Bytes from the start of the header to the end of the message.</summary>
        int EncodedLength();

        /// <summary>Appends the message as one line of JSON, as <c>sbekit decode</c> prints it.</summary>
        System.Text.StringBuilder AppendJson(System.Text.StringBuilder output);
    }
}
