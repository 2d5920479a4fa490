// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Projections of views: [`io_project!`] narrows a view to a field or an element, with the
//! projections of [`ptr::project!`](crate::ptr::project), and [`io_read!`] and [`io_write!`]
//! read and write what it narrows to. Narrowing is checked, so the part is inside the view:
//! an index past an array is an error, a panic or a build failure, as the index says.
//!
//! Kernel counterpart: `io_project!`, `io_read!`, `io_write!` and `ProjectHelper` in
//! `rust/kernel/io.rs` of Linux 7.3.

use super::{Io, IoBackend};
use crate::ptr::KnownSize;

#[cfg(doc)]
use crate::{io_project, io_read, io_write};

/// Turns the backend's associated functions into methods, for [`io_project!`]: not an API.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct ProjectHelper<T>(pub T);

impl<'a, T> ProjectHelper<T>
where
    T: Io<'a, Backend: IoBackend<View<'a, T::Target> = T>>,
{
    /// The pointer behind the view.
    #[inline(always)]
    pub fn as_ptr(self) -> *mut T::Target {
        T::Backend::as_ptr(self.0)
    }

    /// The view of the part at `ptr`.
    ///
    /// # Safety
    ///
    /// As for [`IoBackend::project_view`]: `ptr` must be a projection of [`as_ptr`](Self::as_ptr).
    #[inline(always)]
    pub unsafe fn project_view<U: ?Sized + KnownSize>(
        self,
        ptr: *mut U,
    ) -> <T::Backend as IoBackend>::View<'a, U> {
        // SAFETY: The caller promises that `ptr` is a projection of the view's pointer.
        unsafe { T::Backend::project_view::<T::Target, U>(self.0, ptr) }
    }
}

/// The view of a field or an element of an I/O view: `io_project!(io, .field[try: index])`,
/// with the projections of [`ptr::project!`](crate::ptr::project) (`.field`, `[try: i]`,
/// `[panic: i]`, `[build: i]`, and ranges).
///
/// Kernel counterpart: `kernel::io::io_project!` (Linux 7.3).
///
/// The projected view reads and writes the part of the region it covers, with the backend of
/// the view it comes from; an index out of bounds returns `ERANGE` (`try`), panics (`panic`) or
/// fails the build (`build`), never reaching outside the region.
///
/// # Examples
///
/// ```
/// use kernel_core::io::{io_project, Io, SysMem};
/// use kernel_core::prelude::*;
///
/// #[repr(C)]
/// struct Descriptor {
///     addr: u32,
///     len: u16,
///     flags: u16,
/// }
///
/// fn set_len(ring: SysMem<'_, [Descriptor]>, index: usize, len: u16) -> Result {
///     io_project!(ring, [try: index].len).write_val(len);
///     Ok(())
/// }
///
/// let mut ring = [const { Descriptor { addr: 0, len: 0, flags: 0 } }; 4];
/// // SAFETY: `ring` is valid memory for as long as the view is used.
/// let io = unsafe { SysMem::new(&mut ring[..]) };
/// set_len(io, 2, 1500)?;
/// assert_eq!(set_len(io, 4, 1500), Err(ERANGE));
/// let whole: SysMem<'_, Descriptor> = io_project!(io, [build: 2]);
/// io_project!(whole, .flags).write_val(1);
/// assert_eq!((ring[2].len, ring[2].flags), (1500, 1));
/// # Ok::<(), Error>(())
/// ```
#[macro_export]
#[doc(hidden)]
macro_rules! io_project {
    ($io:expr, $($projection:tt)*) => {{
        #[allow(unused_imports)]
        use $crate::io::IoBase as _;
        let view = $crate::io::ProjectHelper($io.as_view());
        let ptr = $crate::ptr::project!(mut view.as_ptr(), $($projection)*);
        #[allow(unused_unsafe)]
        // SAFETY: `ptr` is a projection of the view's pointer, inside it and aligned.
        unsafe {
            view.project_view(ptr)
        }
    }};
}

/// Reads a field or an element of an I/O view: `io_read!(io, .field[try: index])` is
/// `io_project!(io, ...).read_val()`.
///
/// Kernel counterpart: `kernel::io::io_read!` (Linux 7.3).
///
/// # Examples
///
/// ```
/// use kernel_core::io::{io_read, SysMem};
/// use kernel_core::prelude::*;
///
/// #[repr(C)]
/// struct Status {
///     code: u32,
///     count: [u16; 2],
/// }
///
/// let mut status = Status { code: 7, count: [3, 4] };
/// // SAFETY: `status` is valid memory for as long as the view is used.
/// let io = unsafe { SysMem::new(&raw mut status) };
/// let code: u32 = io_read!(io, .code);
/// let second = (|| -> Result<u16> { Ok(io_read!(io, .count[try: 1])) })()?;
/// assert_eq!((code, second), (7, 4));
/// # Ok::<(), Error>(())
/// ```
#[macro_export]
#[doc(hidden)]
macro_rules! io_read {
    ($io:expr, $($projection:tt)*) => {
        $crate::io::Io::read_val($crate::io_project!($io, $($projection)*))
    };
}

/// Writes a field or an element of an I/O view: `io_write!(io, .field[try: index], value)` is
/// `io_project!(io, ...).write_val(value)`.
///
/// Kernel counterpart: `kernel::io::io_write!` (Linux 7.3).
///
/// # Examples
///
/// ```
/// use kernel_core::io::{io_write, SysMem};
/// use kernel_core::prelude::*;
///
/// #[repr(C)]
/// struct Doorbells {
///     queue: [u32; 4],
/// }
///
/// let mut doorbells = Doorbells { queue: [0; 4] };
/// // SAFETY: `doorbells` is valid memory for as long as the view is used.
/// let io = unsafe { SysMem::new(&raw mut doorbells) };
/// io_write!(io, .queue[build: 3], 0x10);
/// assert_eq!((|| -> Result { io_write!(io, .queue[try: 4], 1); Ok(()) })(), Err(ERANGE));
/// assert_eq!(doorbells.queue, [0, 0, 0, 0x10]);
/// ```
#[macro_export]
#[doc(hidden)]
macro_rules! io_write {
    // Collects the projection, one `.field` or `[flavor: index]` at a time, up to the value.
    (@collect [$io:expr] [$($projection:tt)*] [, $value:expr]) => {
        $crate::io::Io::write_val($crate::io_project!($io, $($projection)*), $value)
    };
    (@collect [$io:expr] [$($projection:tt)*] [. $field:tt $($rest:tt)*]) => {
        $crate::io_write!(@collect [$io] [$($projection)* . $field] [$($rest)*])
    };
    (@collect [$io:expr] [$($projection:tt)*] [[$flavor:ident: $index:expr] $($rest:tt)*]) => {
        $crate::io_write!(@collect [$io] [$($projection)* [$flavor: $index]] [$($rest)*])
    };
    ($io:expr, $($rest:tt)*) => {
        $crate::io_write!(@collect [$io] [] [$($rest)*])
    };
}
