// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The run of Linux 7.3's `drivers/gpu/drm/drm_panic_qr.rs` on kernel-core: its two C entry
//! points called as `drivers/gpu/drm/drm_panic.c` calls them, and the QR codes they draw saved
//! for `tests/real_code.rs` to read back with a QR code reader of its own.
//!
//! `tests/real_code.rs` builds the file unchanged but for `kernel::` written `kernel_core::` and
//! makes this file a child module of its crate root. The buffers are the sizes `drm_panic.c`
//! allocates (`QR_BUFFER1_SIZE`, three times `MAX_QR_DATA`, and `QR_BUFFER2_SIZE`), used the way it
//! uses them: with a URL (`CONFIG_DRM_PANIC_SCREEN_QR_CODE_URL`) the compressed log is in the
//! second buffer and the first is the encoder's scratch, without one the log is in the first.
//!
//! Each QR code is written to the directory in `KERNEL_CORE_REAL_CODE_OUT` as `NN.case`, text
//! lines `url <hex>` (absent without a URL), `data <hex>`, `width <modules>` and `image <hex>`
//! (the buffer as `drm_panic.c` blits it: `width` rows of `width.div_ceil(8)` bytes, the most
//! significant bit first, a set bit a light module), then `index` with the number of cases, last.

extern crate std;

use super::*;
use std::{format, string::String, vec, vec::Vec};

/// `MAX_QR_DATA` of `drm_panic.c`.
const MAX_QR_DATA: usize = 2956;
/// `QR_BUFFER1_SIZE` of `drm_panic.c`: `MAX_ZLIB_RATIO * MAX_QR_DATA`.
const QR_BUFFER1_SIZE: usize = 3 * MAX_QR_DATA;
/// `QR_BUFFER2_SIZE` of `drm_panic.c`.
const QR_BUFFER2_SIZE: usize = 4096;
/// A report URL as `drm_panic.c` builds it: `CONFIG_DRM_PANIC_SCREEN_QR_CODE_URL` (the one its
/// Kconfig help names), then `?a=<machine>&v=<release>&z=`.
const URL: &core::ffi::CStr =
    c"https://panic.archlinux.org/panic_report#?a=x86_64&v=7.3.4-arch1-1&z=";

/// The width in modules of a QR code of `version`.
fn width_of(version: usize) -> usize {
    17 + 4 * version
}

/// `len` bytes that are not text: a xorshift sequence from `seed`.
fn noise(len: usize, seed: u32) -> Vec<u8> {
    let mut state = seed | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state >> 24) as u8
        })
        .collect()
}

/// `drm_panic_qr_max_data_size(version, url_len)`.
fn max_data_size(version: u8, url_len: usize) -> usize {
    // SAFETY: Always safe to call, as its documentation says.
    unsafe { drm_panic_qr_max_data_size(version, url_len) }
}

/// A QR code as `drm_panic.c` makes it of `data` (with `url`, if any): its width (0 if it does
/// not fit) and its image.
fn generate(url: Option<&core::ffi::CStr>, data: &[u8]) -> (u8, Vec<u8>) {
    let mut buffer1 = vec![0u8; QR_BUFFER1_SIZE];
    let mut buffer2 = vec![0u8; QR_BUFFER2_SIZE];
    let (image, scratch) = match url {
        Some(_) => (&mut buffer2, &mut buffer1),
        None => (&mut buffer1, &mut buffer2),
    };
    image[..data.len()].copy_from_slice(data);
    let url = url.map_or(core::ptr::null(), |url| url.as_char_ptr());
    // SAFETY: `url` is null or a NUL-terminated string; `image` and `scratch` are valid for reads
    // and writes of their lengths for the whole call.
    let width = unsafe {
        drm_panic_qr_generate(
            url,
            image.as_mut_ptr(),
            data.len(),
            image.len(),
            scratch.as_mut_ptr(),
            scratch.len(),
        )
    };
    let stride = usize::from(width).div_ceil(8);
    let image = image[..usize::from(width) * stride].to_vec();
    (width, image)
}

/// The directory this run writes its cases to.
fn out_dir() -> std::path::PathBuf {
    std::env::var_os("KERNEL_CORE_REAL_CODE_OUT")
        .expect("tests/real_code.rs sets KERNEL_CORE_REAL_CODE_OUT")
        .into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The cases written so far.
struct Cases {
    dir: std::path::PathBuf,
    count: usize,
}

impl Cases {
    /// Draws the QR code of `data` (with `url`), checks that it is a QR code's width (or 0:
    /// it does not fit) and, if `version` is given, at most that version's, and writes it as
    /// the next case, even when it does not fit (the reader decides whether it should have).
    fn draw(&mut self, url: Option<&core::ffi::CStr>, data: &[u8], version: Option<usize>) {
        let (width, image) = generate(url, data);
        let width = usize::from(width);
        assert!(
            width == 0 || (width >= width_of(1) && (width - 17) % 4 == 0 && width <= width_of(40)),
            "{} bytes (URL: {url:?}): width {width} is not a QR code's",
            data.len()
        );
        if let Some(version) = version {
            assert!(
                width != 0 && width <= width_of(version),
                "{} bytes, the most that drm_panic_qr_max_data_size() says fit in version \
                 {version} (URL: {url:?}), drew width {width}",
                data.len(),
            );
        }
        let mut text = String::new();
        if let Some(url) = url {
            text += &format!("url {}\n", hex(url.to_bytes()));
        }
        text += &format!("data {}\nwidth {width}\nimage {}\n", hex(data), hex(&image));
        let path = self.dir.join(format!("{:04}.case", self.count));
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        self.count += 1;
    }
}

/// The QR codes of raw logs and of URLs with logs, of every length across the first versions'
/// limits and around the larger ones', written for `tests/real_code.rs` to read back and to
/// check that each is the smallest version that holds its data (or that it holds in none).
#[test]
fn draws_qr_codes_as_drm_panic_does() {
    let dir = out_dir();
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("creating {}: {e}", dir.display()));
    let mut cases = Cases { dir, count: 0 };

    // Without a URL: the log itself, as a binary segment.
    cases.draw(
        None,
        b"Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(0,0)",
        None,
    );
    cases.draw(None, &(0..=255).collect::<Vec<u8>>(), None);
    // Every length up to the limit of version 2 (32 bytes).
    for len in 0..=40 {
        cases.draw(None, &noise(len, len as u32), None);
    }
    // As much as drm_panic_qr_max_data_size() says each version holds, which must fit; and
    // past it, around the limits of versions 1 to 12 (version information from 7 on, a wider
    // length field from 10 on), 26, 27, 39 and 40 (each limit that much or a byte more).
    for version in 1..=40u8 {
        let max = max_data_size(version, 0);
        assert!(max > 0, "version {version} holds nothing");
        cases.draw(None, &noise(max, version.into()), Some(version.into()));
        if matches!(version, 1..=12 | 26 | 27 | 39 | 40) {
            for more in 1..=3 {
                cases.draw(None, &noise(max + more, version.into()), None);
            }
        }
    }

    // With a URL: the URL as a binary segment, the compressed log as a numeric one, 7 bytes to
    // 17 digits. Every length up to version 5, every remainder of 7 among them; then around
    // the limits (after this URL) of version 26 (1281 bytes) and of 40 (2848), and past it.
    let url_len = URL.to_bytes().len();
    for len in [0..=30, 1280..=1282, 2847..=2849].into_iter().flatten() {
        cases.draw(Some(URL), &noise(len, 1000 + len as u32), None);
    }
    for version in [4u8, 5, 9, 10, 26, 27, 40] {
        let max = max_data_size(version, url_len);
        assert!(max > 0, "version {version} holds no data after the URL");
        cases.draw(Some(URL), &noise(max, version.into()), Some(version.into()));
    }

    let index = cases.dir.join("index");
    std::fs::write(&index, format!("{}\n", cases.count))
        .unwrap_or_else(|e| panic!("writing {}: {e}", index.display()));
}

/// What the entry points refuse: buffers smaller than a version 40 code needs, more data than
/// the buffer, versions outside 1 to 40, a URL that leaves no room.
#[test]
fn refuses_what_does_not_fit() {
    let mut data = vec![0u8; 4071];
    let mut tmp = vec![0u8; 3706];
    let generate = |data: &mut [u8], data_len: usize, tmp: &mut [u8]| {
        // SAFETY: `data` and `tmp` are valid for reads and writes of their lengths; the URL is
        // null.
        unsafe {
            drm_panic_qr_generate(
                core::ptr::null(),
                data.as_mut_ptr(),
                data_len,
                data.len(),
                tmp.as_mut_ptr(),
                tmp.len(),
            )
        }
    };
    assert_eq!(generate(&mut data, 10, &mut tmp), width_of(1) as u8);
    assert_eq!(generate(&mut data[..4070], 10, &mut tmp), 0);
    assert_eq!(generate(&mut data, 10, &mut tmp[..3705]), 0);
    assert_eq!(generate(&mut data, 4072, &mut tmp), 0);

    assert_eq!(max_data_size(0, 0), 0);
    assert_eq!(max_data_size(41, 0), 0);
    assert_eq!(max_data_size(40, 0), MAX_QR_DATA - 3);
    assert_eq!(max_data_size(1, 100), 0);
}
