//! What `cargo xtask compare` prints and writes: the table, the rates, `index.html` and
//! `results.tsv`.

use super::{LayoutDiff, Row, Side};
use std::fmt::Write as _;

/// The two mismatch limits the differential goal is stated in (issue 17): share of cases
/// within 1% and within 0.3% of Chart.js.
pub const LIMITS: [f64; 2] = [0.01, 0.003];

pub fn median(mut values: Vec<f64>) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

/// Share of `values` at or below `limit`.
pub fn share_within(values: &[f64], limit: f64) -> f64 {
    let n = values.iter().filter(|v| **v <= limit).count();
    n as f64 / values.len().max(1) as f64
}

/// "N cases: plain 99.50% within 1%, 97.00% within 0.3% (median …); text-aware …".
pub fn rates_line(rows: &[Row]) -> String {
    let plain: Vec<f64> = rows.iter().map(|r| r.ratio).collect();
    let text: Vec<f64> = rows
        .iter()
        .map(|r| r.text_ratio.unwrap_or(r.ratio))
        .collect();
    let mut s = format!("{} cases:", rows.len());
    for (name, values) in [("plain", &plain), ("text-aware", &text)] {
        let _ = write!(
            s,
            " {name} {:.2}% within 1%, {:.2}% within 0.3% (median {:.3}%);",
            share_within(values, LIMITS[0]) * 100.0,
            share_within(values, LIMITS[1]) * 100.0,
            median(values.clone()) * 100.0
        );
    }
    let differ = rows.iter().filter(|r| !messages_agree(r)).count();
    let _ = write!(s, " messages differ on {differ}");
    s
}

/// Whether both engines printed the same messages (text and level, in any order, each
/// distinct message once: Chart.js repeats a warning each time its code runs, e.g. once per
/// layout pass).
pub fn messages_agree(row: &Row) -> bool {
    let key = |side: &Side| {
        let mut v: Vec<String> = side
            .messages
            .iter()
            .map(|m| format!("{:?}:{}", m.level, m.message))
            .collect();
        v.sort();
        v.dedup();
        v
    };
    key(&row.skia) == key(&row.browser)
}

/// The share of cases within each limit, by chart kind (random campaigns).
pub fn print_kinds(rows: &[Row]) {
    let mut kinds: Vec<&str> = rows.iter().filter_map(|r| r.case.kind).collect();
    kinds.sort_unstable();
    kinds.dedup();
    println!(
        "{:<10} {:>5} {:>9} {:>9} {:>11} {:>11}",
        "kind", "cases", "<=1%", "<=0.3%", "text <=1%", "text <=0.3%"
    );
    for kind in kinds {
        let of: Vec<&Row> = rows.iter().filter(|r| r.case.kind == Some(kind)).collect();
        let plain: Vec<f64> = of.iter().map(|r| r.ratio).collect();
        let text: Vec<f64> = of.iter().map(|r| r.text_ratio.unwrap_or(r.ratio)).collect();
        println!(
            "{kind:<10} {:>5} {:>8.1}% {:>8.1}% {:>10.1}% {:>10.1}%",
            of.len(),
            share_within(&plain, LIMITS[0]) * 100.0,
            share_within(&plain, LIMITS[1]) * 100.0,
            share_within(&text, LIMITS[0]) * 100.0,
            share_within(&text, LIMITS[1]) * 100.0,
        );
    }
}

fn notes(row: &Row) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(f) = &row.skia.failure {
        notes.push(format!("skia: {f}"));
    }
    if let Some(f) = &row.browser.failure {
        notes.push(format!("browser: {f}"));
    }
    if let (Some(a), Some(b)) = (row.skia.size, row.browser.size) {
        if a != b {
            notes.push(format!("size {}x{} vs {}x{}", a.0, a.1, b.0, b.1));
        }
    }
    if let Some(l) = &row.layout {
        notes.extend(l.notes.iter().cloned());
    }
    notes
}

pub fn print_table(rows: &[Row]) {
    println!(
        "{:<28} {:>9} {:>9} {:>9} {:>9} {:>8} {:>8}  {:>7} {:>7} {:>7} {:>7}  notes",
        "chart",
        "mismatch",
        "text-awr",
        "skia msg",
        "brws msg",
        "skia ms",
        "brws ms",
        "area px",
        "box px",
        "tick px",
        "elem px"
    );
    for row in rows {
        println!(
            "{:<28} {:>8.2}% {:>8.2}% {:>9} {:>9} {:>8} {:>8}  {}  {}",
            row.case.name,
            row.ratio * 100.0,
            row.text_ratio.unwrap_or(row.ratio) * 100.0,
            row.skia.messages.len(),
            row.browser.messages.len(),
            row.skia.millis,
            row.browser.millis,
            layout_columns(row.layout.as_ref()),
            notes(row).join("; ")
        );
    }
    print_summary(rows);
}

pub fn print_summary(rows: &[Row]) {
    let ratios: Vec<f64> = rows.iter().map(|r| r.ratio).collect();
    let worst: Vec<f64> = rows
        .iter()
        .filter_map(|r| r.layout.as_ref().map(LayoutDiff::worst))
        .collect();
    let exact = worst.iter().filter(|w| **w < 0.5).count();
    println!(
        "{} charts, median mismatch {:.2}%; layout within 0.5 px of Chart.js: {exact}/{} \
         (median largest difference {:.2} px)",
        rows.len(),
        median(ratios) * 100.0,
        worst.len(),
        median(worst.clone())
    );
    println!("{}", rates_line(rows));
}

/// One line per case, tab-separated, for campaigns (sortable, greppable).
pub fn results_tsv(rows: &[Row]) -> String {
    let mut s = String::from(
        "name\tkind\tmismatch\ttext_aware\tlayout_px\tmessages_agree\tskia_messages\tbrowser_messages\ttitle\n",
    );
    for r in rows {
        let msgs = |side: &Side| {
            side.messages
                .iter()
                .map(|m| m.message.replace(['\t', '\n'], " "))
                .collect::<Vec<_>>()
                .join(" | ")
        };
        let _ = writeln!(
            s,
            "{}\t{}\t{:.5}\t{:.5}\t{}\t{}\t{}\t{}\t{}",
            r.case.name,
            r.case.kind.unwrap_or("-"),
            r.ratio * 100.0,
            r.text_ratio.unwrap_or(r.ratio) * 100.0,
            r.layout
                .as_ref()
                .map_or("-".into(), |l| format!("{:.2}", l.worst())),
            messages_agree(r),
            msgs(&r.skia),
            msgs(&r.browser),
            r.case.title.replace(['\t', '\n'], " "),
        );
    }
    s
}

/// The four largest differences, or dashes when a side has no layout.
fn layout_columns(l: Option<&LayoutDiff>) -> String {
    match l {
        Some(l) => format!(
            "{:>7.2} {:>7.2} {:>7.2} {:>7.2}",
            l.area, l.boxes, l.ticks, l.elements
        ),
        None => format!("{:>7} {:>7} {:>7} {:>7}", "-", "-", "-", "-"),
    }
}

pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn messages_html(side: &Side) -> String {
    let mut s = String::new();
    if let Some(f) = &side.failure {
        let _ = write!(s, "<li class=error>failed: {}</li>", escape(f));
    }
    for m in &side.messages {
        let level = format!("{:?}", m.level).to_lowercase();
        let _ = write!(s, "<li class={level}>{level}: {}</li>", escape(&m.message));
    }
    if s.is_empty() {
        "<span class=none>no messages</span>".into()
    } else {
        format!("<ul>{s}</ul>")
    }
}

fn layout_html(l: Option<&LayoutDiff>) -> String {
    match l {
        Some(l) => {
            let mut s = format!(
                "{:.2} {:.2} {:.2} {:.2}",
                l.area, l.boxes, l.ticks, l.elements
            );
            for n in &l.notes {
                let _ = write!(s, "; {n}");
            }
            s
        }
        None => "-".into(),
    }
}

/// `index.html`: the summary, then `shown` rows (all of them, or a campaign's worst cases).
pub fn index_html(rows: &[Row], shown: &[&Row], threshold: f64, heading: &str) -> String {
    let ratios: Vec<f64> = rows.iter().map(|r| r.ratio).collect();
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html><html><head><meta charset=utf-8><title>skia vs browser</title>\
         <style>body{{font:14px sans-serif;margin:1em}}table{{border-collapse:collapse}}\
         td,th{{border:1px solid #ccc;padding:4px;vertical-align:top;text-align:left}}\
         img{{max-width:100%;background:repeating-conic-gradient(#eee 0 25%,#fff 0 50%) 0 0/16px 16px}}\
         .error{{color:#b00}}.warn{{color:#a60}}.none{{color:#999}}ul{{margin:0;padding-left:1.2em}}\
         </style></head><body><h1>skia vs browser</h1>\
         <p>{} charts; median mismatch <b>{:.2}%</b> (pixelmatch, threshold {threshold}, \
         anti-aliasing not counted). {}</p><p>The text-aware mismatch counts only the \
         mismatched pixels outside the skia engine's text boxes (each grown by {} CSS px). \
         {heading} Each strip: browser (Chart.js) | diff | skia.</p>\
         <table><tr><th>chart</th><th>mismatch</th><th>text-aware</th>\
         <th>layout Δ px<br>area box tick elem</th><th>browser | diff | skia</th>\
         <th>skia messages</th><th>browser messages</th></tr>",
        rows.len(),
        median(ratios) * 100.0,
        escape(&rates_line(rows)),
        super::text_mask::TEXT_MARGIN,
    );
    for row in shown {
        let name = escape(&row.case.name);
        let strip = if row.images_written && row.skia.size.is_some() && row.browser.size.is_some() {
            format!("<a href=\"{name}.diff.png\"><img src=\"{name}.diff.png\"></a>")
        } else if row.images_written {
            let mut s = String::new();
            for (side, file) in [(&row.browser, "browser"), (&row.skia, "skia")] {
                if side.size.is_some() {
                    let _ = write!(s, "<img src=\"{name}.{file}.png\"> ");
                }
            }
            s
        } else {
            "<span class=none>images not kept</span>".into()
        };
        let config = match &row.case.config_file {
            Some(f) => format!(" · <a href=\"{}\">config</a>", escape(f)),
            None => String::new(),
        };
        let _ = write!(
            html,
            "<tr id=\"{name}\"><td><b>{name}</b><br>{}<br>\
             <a href=\"{name}.browser.png\">browser</a> · <a href=\"{name}.skia.png\">skia</a>{config}</td>\
             <td>{:.2}%</td><td>{:.2}%</td><td>{}</td><td>{strip}</td><td>{}</td><td>{}</td></tr>",
            escape(&row.case.title),
            row.ratio * 100.0,
            row.text_ratio.unwrap_or(row.ratio) * 100.0,
            escape(&layout_html(row.layout.as_ref())),
            messages_html(&row.skia),
            messages_html(&row.browser),
        );
    }
    html.push_str("</table></body></html>\n");
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even() {
        assert_eq!(median(vec![0.3, 0.1, 0.2]), 0.2);
        assert_eq!(median(vec![0.4, 0.1, 0.2, 0.3]), 0.25);
        assert_eq!(median(vec![]), 0.0);
    }

    #[test]
    fn shares_count_the_limit_itself() {
        assert_eq!(share_within(&[0.001, 0.003, 0.02, 0.5], 0.003), 0.5);
        assert_eq!(share_within(&[], 0.01), 0.0);
    }

    #[test]
    fn html_is_escaped() {
        assert_eq!(
            escape("<a href=\"x\">&</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
        );
    }
}
