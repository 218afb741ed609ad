//! The latency chart: per format, p50 / p99 / p99.9 of serialize and deserialize on a
//! logarithmic axis, as SVG (plotters, SVG backend only: no fonts or image libraries). The
//! maximum is left out: it measures the scheduler (preemptions of milliseconds), not the
//! format, and would flatten everything else; the table and JSON have it.

use crate::report::{PhaseSummary, Summary};
use plotters::prelude::*;

const PERCENTILES: [&str; 3] = ["p50", "p99", "p99.9"];

fn points(p: &PhaseSummary) -> [u64; 3] {
    [p.p50_ns, p.p99_ns, p.p999_ns]
}

/// A distinct color per row.
fn color(i: usize) -> RGBColor {
    const C: [RGBColor; 12] = [
        RGBColor(214, 39, 40),
        RGBColor(255, 127, 14),
        RGBColor(31, 119, 180),
        RGBColor(44, 160, 44),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(23, 190, 207),
        RGBColor(0, 0, 0),
        RGBColor(0, 90, 50),
    ];
    C[i % C.len()]
}

/// Renders the chart as an SVG document.
pub fn svg(summary: &Summary) -> Result<String, String> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (1200, 560)).into_drawing_area();
        draw(&root, summary).map_err(|e| format!("chart: {e}"))?;
        root.present().map_err(|e| format!("chart: {e}"))?;
    }
    Ok(text)
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    summary: &Summary,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let title = format!(
        "Latency per message, median of {} run(s) (ns, log scale) - {}",
        summary.runs,
        summary
            .input
            .rsplit('/')
            .next()
            .unwrap_or("")
            .chars()
            .take(70)
            .collect::<String>()
    );
    let root = root.titled(&title, ("sans-serif", 18))?;
    let (left, right) = root.split_horizontally(600);
    let all: Vec<u64> = summary
        .formats
        .iter()
        .flat_map(|f| {
            points(&f.serialize)
                .into_iter()
                .chain(points(&f.deserialize))
        })
        .collect();
    let hi = all.iter().copied().max().unwrap_or(1).max(10) as f64 * 1.5;
    // Room below the lowest line for the legend.
    let lo = all.iter().copied().filter(|&v| v > 0).min().unwrap_or(1) as f64 / 12.0;
    for (area, name, ser) in [(&left, "serialize", true), (&right, "deserialize", false)] {
        let mut chart = ChartBuilder::on(area)
            .caption(name, ("sans-serif", 16))
            .margin(12)
            .x_label_area_size(30)
            .y_label_area_size(60)
            .build_cartesian_2d(-0.2f64..2.2f64, (lo.max(1.0)..hi).log_scale())?;
        chart
            .configure_mesh()
            .x_labels(3)
            .x_label_formatter(&|x| {
                let i = x.round() as i64;
                if (x - i as f64).abs() < 0.01 && (0..3).contains(&i) {
                    PERCENTILES[i as usize].to_string()
                } else {
                    String::new()
                }
            })
            .y_desc("ns")
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()?;
        for (i, f) in summary.formats.iter().enumerate() {
            let p = if ser { &f.serialize } else { &f.deserialize };
            let c = color(i);
            let pts: Vec<(f64, f64)> = points(p)
                .iter()
                .enumerate()
                .map(|(k, &v)| (k as f64, v.max(1) as f64))
                .collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))?
                .label(f.label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], c.stroke_width(2))
                });
            chart.draw_series(pts.into_iter().map(|xy| Circle::new(xy, 3, c.filled())))?;
        }
        if ser {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::LowerRight)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font(("sans-serif", 12))
                .draw()?;
        }
    }
    Ok(())
}
