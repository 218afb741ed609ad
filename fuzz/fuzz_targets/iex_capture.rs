//! Any bytes given to the IEX capture readers (slice and streaming) yield messages and at most
//! errors with offsets inside the input, never a panic; both readers agree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sbekit_iex::stats::Stats;
use sbekit_iex::{ReadOptions, Segments, StreamSegments};

fuzz_target!(|data: &[u8]| {
    for keep_going in [false, true] {
        let opts = ReadOptions { keep_going };
        let mut slice = Vec::new();
        if let Ok(segs) = Segments::new(data, opts) {
            for m in segs.messages() {
                match m {
                    Ok(m) => {
                        let _ = (m.timestamp(), m.symbol().map(|s| s.as_str().len()));
                        slice.push(Ok(m.raw().to_vec()));
                    }
                    Err(e) => {
                        assert!(e.offset <= data.len() as u64);
                        slice.push(Err(e.offset));
                    }
                }
            }
        }
        let mut stream = Vec::new();
        if let Ok(mut s) = StreamSegments::new(data, opts) {
            'outer: while let Some(seg) = s.next_segment() {
                match seg {
                    Ok(seg) => {
                        let _ = Stats::default().add_segment(&seg, true);
                        for m in seg.messages() {
                            match m {
                                Ok(m) => stream.push(Ok(m.raw().to_vec())),
                                Err(e) => {
                                    stream.push(Err(e.offset));
                                    if !keep_going {
                                        break 'outer;
                                    }
                                }
                            }
                        }
                    }
                    Err(e) => stream.push(Err(e.offset)),
                }
            }
        }
        assert_eq!(slice, stream);
    }
});
