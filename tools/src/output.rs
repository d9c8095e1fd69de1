//! Rendering of listings: `--format text|wide` tables with rpk's UPPER CASE
//! headers, `json` and `yaml` documents of the same data. Text tables are
//! fitted to the terminal by shortening the widest cells (with `…`), so a
//! long topic name does not wrap every row; `wide` never truncates.

use std::io::Write;

use serde::Serialize;

use crate::cli::OutFormat;
use crate::errors::{Result, TmkError};

/// The terminal width: $COLUMNS, else the tty's, else None (not a terminal:
/// a pipe gets full rows).
pub fn terminal_width() -> Option<usize> {
    if let Some(c) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse::<usize>().ok())
        .filter(|c| *c > 0)
    {
        return Some(c);
    }
    terminal_size::terminal_size().map(|(w, _)| w.0 as usize)
}

/// A table: headers and rows of cells.
#[derive(Debug, Clone, Default)]
pub struct Table {
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new<S: AsRef<str>>(headers: &[S]) -> Table {
        Table {
            headers: headers.iter().map(|h| h.as_ref().to_uppercase()).collect(),
            rows: Vec::new(),
        }
    }

    pub fn row<I, S>(&mut self, cells: I)
    where
        I: IntoIterator<Item = S>,
        S: ToString,
    {
        self.rows
            .push(cells.into_iter().map(|c| c.to_string()).collect());
    }

    /// Renders with columns separated by two spaces; `width` limits the
    /// line length by shrinking the widest columns.
    pub fn render(&self, width: Option<usize>) -> String {
        let n = self.headers.len();
        let cell_w = |s: &str| s.chars().count();
        let mut widths: Vec<usize> = self.headers.iter().map(|h| cell_w(h)).collect();
        for r in &self.rows {
            for (i, c) in r.iter().enumerate().take(n) {
                widths[i] = widths[i].max(cell_w(c));
            }
        }
        if let Some(limit) = width {
            let sep = 2 * n.saturating_sub(1);
            let floor: Vec<usize> = self.headers.iter().map(|h| cell_w(h).max(4)).collect();
            while widths.iter().sum::<usize>() + sep > limit {
                // Shrink the widest column that can still shrink.
                let Some((i, _)) = widths
                    .iter()
                    .enumerate()
                    .filter(|(i, w)| **w > floor[*i])
                    .max_by_key(|(_, w)| **w)
                else {
                    break;
                };
                widths[i] -= 1;
            }
        }
        let mut out = String::new();
        let mut line = |cells: &[String]| {
            let mut l = String::new();
            for (i, w) in widths.iter().enumerate() {
                let c = cells.get(i).map(String::as_str).unwrap_or("");
                let c = fit(c, *w);
                if i + 1 == n {
                    l.push_str(&c);
                } else {
                    l.push_str(&format!("{c:<w$}  "));
                }
            }
            out.push_str(l.trim_end());
            out.push('\n');
        };
        line(&self.headers);
        for r in &self.rows {
            line(r);
        }
        out
    }
}

fn fit(s: &str, w: usize) -> String {
    if s.chars().count() <= w {
        return s.to_string();
    }
    let mut t: String = s.chars().take(w.saturating_sub(1)).collect();
    t.push('…');
    t
}

/// Prints `data` as JSON or YAML, or calls `text` for a table rendering.
pub fn emit<T: Serialize>(
    format: OutFormat,
    data: &T,
    text: impl FnOnce(Option<usize>) -> String,
) -> Result<()> {
    let s = match format {
        OutFormat::Json => {
            let mut s = serde_json::to_string_pretty(data)
                .map_err(|e| TmkError::msg(format!("encoding JSON: {e}")))?;
            s.push('\n');
            s
        }
        OutFormat::Yaml => {
            serde_yaml::to_string(data).map_err(|e| TmkError::msg(format!("encoding YAML: {e}")))?
        }
        OutFormat::Text => text(terminal_width()),
        OutFormat::Wide => text(None),
    };
    write_stdout(s.as_bytes())
}

/// Writes to stdout; a closed pipe (`| head`) ends quietly.
pub fn write_stdout(b: &[u8]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(b).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(TmkError::msg(format!("writing output: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_and_upper_case() {
        let mut t = Table::new(&["name", "partitions"]);
        t.row(["foo", "3"]);
        t.row(["a-longer-name", "12"]);
        assert_eq!(
            t.render(None),
            "NAME           PARTITIONS\nfoo            3\na-longer-name  12\n"
        );
    }

    #[test]
    fn fits_the_width() {
        let mut t = Table::new(&["name", "id"]);
        t.row(["a-very-very-long-topic-name", "1"]);
        let s = t.render(Some(16));
        for l in s.lines() {
            assert!(l.chars().count() <= 16, "{l:?}");
        }
        assert!(s.contains('…'));
    }
}
