// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The load order: `/modules/order` lists one module file name per line.
//!
//! The host writes that file next to the modules when it builds the initramfs. Blank lines and
//! lines starting with `#` are skipped and surrounding whitespace is ignored, so a hand-written
//! file works too. Everything here works on byte slices into fixed buffers: there is no
//! allocator.

use core::ffi::CStr;

/// Where the modules and the order file live in the initramfs.
const DIR: &[u8] = b"/modules/";

/// Room for `/modules/`, a file name of up to `NAME_MAX` (255) bytes, and the NUL.
pub(crate) const PATH_CAPACITY: usize = DIR.len() + 255 + 1;

/// Room for a module name and its NUL; the kernel's own limit (`MODULE_NAME_LEN`) is smaller.
pub(crate) const NAME_CAPACITY: usize = 256;

/// The module file names in `text`, in order (and, with `.rev()`, in reverse).
pub(crate) fn entries(text: &[u8]) -> impl DoubleEndedIterator<Item = &[u8]> {
    text.split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii)
        .filter(|line| !line.is_empty() && !line.starts_with(b"#"))
}

/// `/modules/<file>` as a C string in `buf`, or `None` if it does not fit or contains a NUL.
pub(crate) fn path<'b>(file: &[u8], buf: &'b mut [u8; PATH_CAPACITY]) -> Option<&'b CStr> {
    let len = DIR.len() + file.len();
    buf.get_mut(..DIR.len())?.copy_from_slice(DIR);
    buf.get_mut(DIR.len()..len)?.copy_from_slice(file);
    *buf.get_mut(len)? = 0;
    CStr::from_bytes_with_nul(buf.get(..=len)?).ok()
}

/// The kernel's name for the module in `file`, as a C string in `buf`: the base name without
/// `.ko`, with `-` turned into `_` as Kbuild does for `KBUILD_MODNAME`. `None` if it does not
/// fit or contains a NUL.
pub(crate) fn module_name<'b>(file: &[u8], buf: &'b mut [u8; NAME_CAPACITY]) -> Option<&'b CStr> {
    let base = match file.iter().rposition(|&b| b == b'/') {
        Some(slash) => file.get(slash + 1..)?,
        None => file,
    };
    let stem = base.strip_suffix(b".ko").unwrap_or(base);
    let dst = buf.get_mut(..stem.len())?;
    for (d, &s) in dst.iter_mut().zip(stem) {
        *d = if s == b'-' { b'_' } else { s };
    }
    *buf.get_mut(stem.len())? = 0;
    CStr::from_bytes_with_nul(buf.get(..=stem.len())?).ok()
}
