// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Reads back the QR codes that Linux 7.3's `drivers/gpu/drm/drm_panic_qr.rs` drew on
//! kernel-core (`checks/drm_panic_qr.rs` saved them), with a reader that owes nothing to the
//! kernel: the `rqrr` crate, from the picture `drm_panic.c` puts on the screen.
//!
//! Each code is drawn as `drm_panic.c` draws it (`_draw_panic_screen_qr_code()`): a margin of
//! four light modules (`QR_MARGIN`), a set bit a light module, a clear one dark, each module a
//! square of pixels; `rqrr` must find exactly one code in the picture, of the version its width
//! says, with the error correction level `L` and the mask pattern 0 (the only ones
//! `drm_panic_qr.rs` writes), and read back exactly what was encoded: the data itself without a
//! URL; with one, the URL and then the data as decimal digits, 17 for every 7 bytes and
//! 3, 5, 8, 10, 13 or 15 for the last 1 to 6 (the scheme of FIDO's CTAP 2.2 for QR-initiated
//! authentication that `drm_panic_qr.rs` follows: each group of bytes a little-endian number).
//!
//! And each code must be of the smallest version that holds its segments, as
//! `drm_panic_qr.rs` promises ("the smallest QR code that can contain the string"), or, when
//! it drew none (width 0), no version may hold them. What a version holds is computed here from
//! the QR code standard (ISO/IEC 18004:2015), not from the kernel's tables: the data codewords
//! of each version at level L (its table 7), and the bits of a segment (its section 7.4): a
//! 4-bit mode, a length field of 8 or 16 bits for bytes and of 10, 12 or 14 bits for digits
//! (versions 1 to 9, 10 to 26, 27 to 40), 8 bits a byte, 10 bits for 3 digits and 4 or 7 for
//! the last 1 or 2.

use std::path::Path;

/// `QR_MARGIN` of `drm_panic.c`: the light modules around the code.
const MARGIN: usize = 4;
/// Pixels per module of the picture.
const SCALE: usize = 3;
/// `rqrr`'s number of the error correction level `L` (the two format bits `01`).
const ECC_LEVEL_L: u16 = 1;
/// The digits of a group of 0 to 7 bytes.
const DIGITS: [usize; 8] = [0, 3, 5, 8, 10, 13, 15, 17];
/// The data codewords of versions 1 to 40 at error correction level L (ISO/IEC 18004:2015,
/// table 7).
const DATA_CODEWORDS_L: [usize; 40] = [
    19, 34, 55, 80, 108, 136, 156, 194, 232, 274, 324, 370, 428, 461, 523, 589, 647, 721, 795, 861,
    932, 1006, 1094, 1174, 1276, 1370, 1468, 1531, 1631, 1735, 1843, 1955, 2071, 2191, 2306, 2434,
    2566, 2702, 2812, 2956,
];

/// One saved QR code.
#[derive(Debug)]
pub struct Case {
    /// The URL, if any.
    pub url: Option<Vec<u8>>,
    /// The data encoded after it.
    pub data: Vec<u8>,
    /// The code's width in modules.
    pub width: usize,
    /// `width` rows of `width.div_ceil(8)` bytes.
    pub image: Vec<u8>,
}

/// Reads the cases that `checks/drm_panic_qr.rs` wrote to `dir`, checks each, and returns a
/// line saying what was read back, or what was not.
pub fn read_back(dir: &Path) -> Result<String, String> {
    let index = dir.join("index");
    let count: usize = std::fs::read_to_string(&index)
        .map_err(|e| format!("reading {}: {e}", index.display()))?
        .trim()
        .parse()
        .map_err(|e| format!("{}: not a count: {e}", index.display()))?;
    if count == 0 {
        return Err(format!("{}: no QR code was drawn", index.display()));
    }
    let mut versions = Vec::new();
    let (mut plain, mut with_url, mut none) = (0, 0, 0);
    for n in 0..count {
        let path = dir.join(format!("{n:04}.case"));
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("reading {}: {e}", path.display()))?;
        let case = parse(&path, &text)?;
        match check(&case).map_err(|e| format!("{}: {e}", path.display()))? {
            Some(version) => versions.push(version),
            None => none += 1,
        }
        match case.url {
            Some(_) => with_url += 1,
            None => plain += 1,
        }
    }
    let read = versions.len();
    versions.sort_unstable();
    versions.dedup();
    if none == 0 || versions.len() != 40 {
        return Err(format!(
            "the cases hold too little: versions {versions:?}, {none} that fit in none"
        ));
    }
    Ok(format!(
        "{read} QR codes read back by rqrr, exactly as encoded, each of the smallest version \
         that holds it (all 40 versions), and {none} refused that no version holds ({plain} of \
         raw data, {with_url} of a URL with data as digits)"
    ))
}

/// Parses a case file (see `checks/drm_panic_qr.rs`).
fn parse(path: &Path, text: &str) -> Result<Case, String> {
    let mut case = Case {
        url: None,
        data: Vec::new(),
        width: 0,
        image: Vec::new(),
    };
    for line in text.lines() {
        let (key, value) = line
            .split_once(' ')
            .ok_or_else(|| format!("{}: unexpected line {line:?}", path.display()))?;
        match key {
            "url" => case.url = Some(unhex(value).map_err(|e| format!("{}: {e}", path.display()))?),
            "data" => case.data = unhex(value).map_err(|e| format!("{}: {e}", path.display()))?,
            "width" => {
                case.width = value
                    .parse()
                    .map_err(|e| format!("{}: width {value:?}: {e}", path.display()))?
            }
            "image" => case.image = unhex(value).map_err(|e| format!("{}: {e}", path.display()))?,
            _ => return Err(format!("{}: unexpected line {line:?}", path.display())),
        }
    }
    let expected = case.width * case.width.div_ceil(8);
    if case.image.len() != expected {
        return Err(format!(
            "{}: width {} with an image of {} bytes (expected {expected})",
            path.display(),
            case.width,
            case.image.len()
        ));
    }
    Ok(case)
}

fn unhex(text: &str) -> Result<Vec<u8>, String> {
    if text.len() % 2 != 0 {
        return Err(format!("odd hexadecimal {text:?}"));
    }
    (0..text.len())
        .step_by(2)
        .map(|at| {
            u8::from_str_radix(&text[at..at + 2], 16)
                .map_err(|e| format!("hexadecimal {:?}: {e}", &text[at..at + 2]))
        })
        .collect()
}

/// Whether the module at `(x, y)` of the case's image is light (its bit set).
fn light(case: &Case, x: usize, y: usize) -> bool {
    let stride = case.width.div_ceil(8);
    case.image[y * stride + x / 8] & (0x80 >> (x % 8)) != 0
}

/// The bits of the segments of `data` (with `url`) in a code of `version`, as the standard
/// counts them (see the module documentation).
fn bits(url: Option<&[u8]>, data: &[u8], version: usize) -> usize {
    let bytes = |len: usize| 4 + if version <= 9 { 8 } else { 16 } + 8 * len;
    match url {
        None => bytes(data.len()),
        Some(url) => {
            let digits = 17 * (data.len() / 7) + DIGITS[data.len() % 7];
            let length = match version {
                1..=9 => 10,
                10..=26 => 12,
                _ => 14,
            };
            bytes(url.len()) + 4 + length + 10 * (digits / 3) + [0, 4, 7][digits % 3]
        }
    }
}

/// The smallest version whose data codewords at level L hold the segments of `data` (with
/// `url`), if one does.
pub fn smallest_version(url: Option<&[u8]>, data: &[u8]) -> Option<usize> {
    (1..=40).find(|&v| bits(url, data, v) <= 8 * DATA_CODEWORDS_L[v - 1])
}

/// Reads the case's code from its picture; returns its version if it holds what was encoded
/// and is the smallest that does, `None` if no code was drawn and none holds the data.
pub fn check(case: &Case) -> Result<Option<usize>, String> {
    let smallest = smallest_version(case.url.as_deref(), &case.data);
    if case.width == 0 {
        return match smallest {
            None => Ok(None),
            Some(v) => Err(format!(
                "no QR code drawn for {} bytes, which version {v} holds",
                case.data.len()
            )),
        };
    }
    let side = (case.width + 2 * MARGIN) * SCALE;
    let mut picture = rqrr::PreparedImage::prepare_from_greyscale(side, side, |px, py| {
        let (x, y) = (px / SCALE, py / SCALE);
        let inside = (MARGIN..MARGIN + case.width).contains(&x)
            && (MARGIN..MARGIN + case.width).contains(&y);
        if !inside || light(case, x - MARGIN, y - MARGIN) {
            255
        } else {
            0
        }
    });
    let grids = picture.detect_grids();
    if grids.len() != 1 {
        return Err(format!(
            "rqrr found {} QR codes in the picture, not one",
            grids.len()
        ));
    }
    let mut read = Vec::new();
    let meta = grids[0]
        .decode_to(&mut read)
        .map_err(|e| format!("rqrr cannot read the QR code: {e:?}"))?;
    let version = (case.width - 17) / 4;
    if meta.version.0 != version || meta.ecc_level != ECC_LEVEL_L || meta.mask != 0 {
        return Err(format!(
            "rqrr reads version {}, error correction {} and mask {}; expected version {version} \
             (width {}), L ({ECC_LEVEL_L}) and 0",
            meta.version.0, meta.ecc_level, meta.mask, case.width
        ));
    }
    let expected = encoded(case.url.as_deref(), &case.data);
    if read != expected {
        return Err(format!(
            "rqrr reads {} bytes {:?}..., expected {} bytes {:?}...",
            read.len(),
            String::from_utf8_lossy(&read[..read.len().min(80)]),
            expected.len(),
            String::from_utf8_lossy(&expected[..expected.len().min(80)])
        ));
    }
    if smallest != Some(version) {
        return Err(format!(
            "version {version} for {} bytes, which the smallest version that holds them is {}",
            case.data.len(),
            smallest.map_or("none".to_owned(), |v| v.to_string())
        ));
    }
    Ok(Some(version))
}

/// What a reader reads from the code of `data` with `url`: the data itself without a URL; with
/// one, the URL, then the data as digits (see the module documentation).
pub fn encoded(url: Option<&[u8]>, data: &[u8]) -> Vec<u8> {
    let Some(url) = url else {
        return data.to_vec();
    };
    let mut out = url.to_vec();
    for group in data.chunks(7) {
        let mut bytes = [0u8; 8];
        bytes[..group.len()].copy_from_slice(group);
        let number = u64::from_le_bytes(bytes);
        out.extend(format!("{number:0width$}", width = DIGITS[group.len()]).bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_after_a_url_is_read_as_digits() {
        assert_eq!(encoded(None, b"\x00\xff"), b"\x00\xff");
        assert_eq!(encoded(Some(b"u="), b""), b"u=");
        // One byte: 3 digits; 0x01 0x02 little-endian is 513: 5 digits.
        assert_eq!(encoded(Some(b"u="), b"\x07"), b"u=007");
        assert_eq!(encoded(Some(b"u="), b"\x01\x02"), b"u=00513");
        // Seven 0xff bytes are 2^56 - 1 = 72057594037927935: 17 digits, then the eighth byte.
        assert_eq!(
            encoded(Some(b""), &[0xff; 8]),
            b"72057594037927935255".to_vec()
        );
    }

    #[test]
    fn versions_hold_what_the_standard_says() {
        // Byte capacities at level L (ISO/IEC 18004:2015, table 7): 17 bytes in version 1,
        // 271 in 10, 1465 in 27, 2953 in 40.
        for (bytes, version) in [(17, 1), (271, 10), (1465, 27), (2953, 40)] {
            assert_eq!(smallest_version(None, &vec![0; bytes]), Some(version));
            let next = (version < 40).then_some(version + 1);
            assert_eq!(smallest_version(None, &vec![0; bytes + 1]), next);
        }
        // An empty URL (12 bits) and 14 bytes as 34 digits (4 + 10 + 114 bits) fit in the 152
        // bits of version 1; 17 bytes as 42 digits (4 + 10 + 140 bits) do not.
        assert_eq!(bits(Some(b""), &[0; 14], 1), 12 + 4 + 10 + 10 * 11 + 4);
        assert_eq!(smallest_version(Some(b""), &[0; 14]), Some(1));
        assert_eq!(smallest_version(Some(b""), &[0; 17]), Some(2));
    }

    #[test]
    fn a_code_that_reads_back_otherwise_fails() {
        // Version 1 (21 modules), all dark: no code at all.
        let case = Case {
            url: None,
            data: b"x".to_vec(),
            width: 21,
            image: vec![0; 21 * 3],
        };
        assert!(check(&case).is_err());
    }
}
