// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A minimal initramfs: an uncompressed `newc` cpio archive, written directly.
//!
//! Writing it here needs neither `cpio` nor root (for the `/dev/console` node), and an
//! uncompressed archive needs no decompressor in the kernel.

use crate::infra::error::Context as _;
use std::path::Path;

/// One archive entry.
enum Entry<'a> {
    Dir(&'a str),
    File {
        path: &'a str,
        mode: u32,
        data: Vec<u8>,
    },
    CharDev {
        path: &'a str,
        major: u32,
        minor: u32,
    },
}

/// Builds an archive.
#[derive(Default)]
pub struct Archive {
    bytes: Vec<u8>,
    inode: u32,
}

impl Archive {
    /// Appends one `newc` header, name and data, padded to 4 bytes.
    fn push(&mut self, entry: Entry<'_>) {
        let (name, mode, data, rdev) = match entry {
            Entry::Dir(path) => (path, 0o040_755, Vec::new(), (0, 0)),
            Entry::File { path, mode, data } => (path, 0o100_000 | mode, data, (0, 0)),
            Entry::CharDev { path, major, minor } => (path, 0o020_600, Vec::new(), (major, minor)),
        };
        self.inode += 1;
        let name_len = name.len() + 1;
        let fields = [
            self.inode,
            mode,
            0,
            0,
            1,
            0,
            data.len() as u32,
            0,
            0,
            rdev.0,
            rdev.1,
            name_len as u32,
            0,
        ];
        self.bytes.extend_from_slice(b"070701");
        for field in fields {
            self.bytes
                .extend_from_slice(format!("{field:08x}").as_bytes());
        }
        self.bytes.extend_from_slice(name.as_bytes());
        self.bytes.push(0);
        self.pad();
        self.bytes.extend_from_slice(&data);
        self.pad();
    }

    fn pad(&mut self) {
        while self.bytes.len() % 4 != 0 {
            self.bytes.push(0);
        }
    }

    /// Adds a directory.
    pub fn dir(&mut self, path: &str) {
        self.push(Entry::Dir(path));
    }

    /// Adds a regular file.
    pub fn file(&mut self, path: &str, mode: u32, data: Vec<u8>) {
        self.push(Entry::File { path, mode, data });
    }

    /// Adds a character device node.
    pub fn char_dev(&mut self, path: &str, major: u32, minor: u32) {
        self.push(Entry::CharDev { path, major, minor });
    }

    /// Finishes the archive and writes it to `path`.
    pub fn write(mut self, path: &Path) -> std::io::Result<()> {
        self.push(Entry::File {
            path: "TRAILER!!!",
            mode: 0,
            data: Vec::new(),
        });
        std::fs::write(path, self.bytes)
    }
}

/// The initramfs of a QEMU run: `/init`, `/dev/console`, and the modules with their load order.
pub fn build(path: &Path, init: &Path, modules: &[&Path]) -> crate::infra::error::Result {
    let mut archive = Archive::default();
    // `/devtmpfs`: where a guest resumed from a saved boot finds its modules' port
    // (`guest-init/src/receive.rs`).
    for dir in ["dev", "devtmpfs", "sys", "modules"] {
        archive.dir(dir);
    }
    archive.char_dev("dev/console", 5, 1);
    // `/init` logs through the kernel's log, so its lines and the kernel's stay in order.
    archive.char_dev("dev/kmsg", 1, 11);
    archive.file("init", 0o755, std::fs::read(init).at(init)?);
    let mut order = String::new();
    for module in modules {
        let name = module
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        order.push_str(name);
        order.push('\n');
        archive.file(
            &format!("modules/{name}"),
            0o644,
            std::fs::read(module).at(module)?,
        );
    }
    archive.file("modules/order", 0o644, order.into_bytes());
    archive.write(path).at(path)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newc_layout() {
        let mut archive = Archive::default();
        archive.file("a", 0o644, b"xyz".to_vec());
        let bytes = archive.bytes.clone();
        assert_eq!(&bytes[..6], b"070701");
        // Header (110 bytes) + "a\0" = 112, already aligned, then 3 bytes of data + 1 pad.
        assert_eq!(bytes.len(), 116);
        assert_eq!(&bytes[110..112], b"a\0");
        assert_eq!(&bytes[112..115], b"xyz");
        // The file size field is the 7th.
        assert_eq!(&bytes[6 + 6 * 8..6 + 7 * 8], b"00000003");
    }
}
