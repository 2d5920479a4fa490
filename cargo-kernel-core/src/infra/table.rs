// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Markdown tables, written one way: `| a | b |` rows under a header and its `|---|---|`
//! line. A row with fewer cells than the header is filled with empty ones, and an empty cell
//! is written `|` after one space, so no caller counts columns.

use std::fmt;

/// A Markdown table being written.
#[derive(Clone, Debug)]
pub struct Table {
    columns: usize,
    text: String,
}

impl Table {
    /// A table with these column names.
    pub fn new<S: AsRef<str>>(header: &[S]) -> Self {
        let mut table = Self {
            columns: header.len(),
            text: String::new(),
        };
        table.push(header);
        table.text.push('|');
        table.text.push_str(&"---|".repeat(header.len()));
        table.text.push('\n');
        table
    }

    /// Adds a row: `cells`, then empty ones up to the header's width.
    pub fn row<S: AsRef<str>>(&mut self, cells: &[S]) -> &mut Self {
        self.push(cells);
        self
    }

    fn push<S: AsRef<str>>(&mut self, cells: &[S]) {
        self.text.push('|');
        let empty = self.columns.saturating_sub(cells.len());
        for cell in cells
            .iter()
            .map(AsRef::as_ref)
            .chain(std::iter::repeat_n("", empty))
        {
            if !cell.is_empty() {
                self.text.push(' ');
                self.text.push_str(cell);
            }
            self.text.push_str(" |");
        }
        self.text.push('\n');
    }

    /// The table's lines, each ending with a newline.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_under_a_header_and_empty_cells_filled() {
        let mut table = Table::new(&["cell", "plan", "result"]);
        table
            .row(&["7.3.4/um", "mydrv", "ok"])
            .row(&["7.2 on arm", "not run"]);
        assert_eq!(
            table.to_string(),
            "| cell | plan | result |\n|---|---|---|\n| 7.3.4/um | mydrv | ok |\n| 7.2 on arm | not run | |\n"
        );
    }
}
