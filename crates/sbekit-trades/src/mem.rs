//! Memory use of this process, from `/proc/self/status` (Linux; `None` elsewhere).

/// Resident memory figures in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MemStats {
    /// Peak resident set size (`VmHWM`): heap, stacks, code and mapped file pages.
    pub peak_rss: u64,
    /// Current anonymous resident memory (`RssAnon`): heap and stacks.
    pub anon: u64,
    /// Current resident file-backed memory (`RssFile`): code and mapped file pages.
    pub file: u64,
}

impl MemStats {
    /// The figures now, if the platform reports them.
    pub fn now() -> Option<Self> {
        let text = std::fs::read_to_string("/proc/self/status").ok()?;
        let field = |name: &str| -> Option<u64> {
            let line = text.lines().find(|l| l.starts_with(name))?;
            let kb: u64 = line[name.len()..]
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse()
                .ok()?;
            Some(kb * 1024)
        };
        Some(MemStats {
            peak_rss: field("VmHWM:")?,
            anon: field("RssAnon:").unwrap_or(0),
            file: field("RssFile:").unwrap_or(0),
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg(target_os = "linux")]
    fn reads_proc_status() {
        let m = super::MemStats::now().expect("linux has /proc/self/status");
        assert!(m.peak_rss > 0 && m.peak_rss >= m.anon);
    }
}
