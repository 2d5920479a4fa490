// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! [`register!`](crate::io::register!): a type per device register, with its bit fields and
//! its place in an I/O region, read and written through [`Io`](super::Io).
//!
//! Kernel counterpart: `rust/kernel/io/register.rs` (Linux 7.3), whose macro the kernel
//! exports at its crate root and re-exports as `kernel::io::register!`; kernel-core does the
//! same (`kernel_core::register!`, `kernel_core::io::register!`).
//!
//! A register is a [`bitfield!`](crate::bitfield!) type (fields read as
//! [`Bounded`](crate::num::Bounded) values, `with_` setters, `=>` and `?=>` conversions) that
//! also knows where it lives. There are four kinds, and each gives [`Io`](super::Io) a
//! location ([`IoLoc`]) to read, write or update:
//!
//! | declaration | location | built with |
//! |---|---|---|
//! | `NAME(u32) @ 0x100` | fixed | the constant `NAME` (or the value itself, or `()` for writes) |
//! | `NAME(u32) @ Base + 0x10` | relative to a base | [`WithBase::of::<B>()`](WithBase::of), `B: RegisterBase<Base>` |
//! | `NAME(u32)[16, stride = 8] @ 0x200` | array | [`Array::at(i)`](Array::at), [`Array::try_at(i)`](Array::try_at) |
//! | `NAME(u32)[16] @ Base + 0x80` | relative array | `NAME::of::<B>().at(i)` |
//!
//! and an alias (`ALIAS(u32) => NAME`, `=> Base + NAME`, `=> NAME[3]`, `=> Base + NAME[3]`)
//! gives another set of fields to the same place. Most items of this module are public only
//! for the macro's use; a driver imports [`WithBase`] and [`Array`], and [`RegisterBase`] to
//! declare bases.
//!
//! # Examples
//!
//! ```
//! use kernel_core::extras::io::sys_mem;
//! use kernel_core::io::{register, Io};
//! use kernel_core::prelude::*;
//!
//! register! {
//!     /// Chip identification.
//!     pub BOOT_0(u32) @ 0x00000100 {
//!         /// Vendor.
//!         15:8 vendor_id;
//!         /// Major revision.
//!         7:4 major_revision;
//!         /// Minor revision.
//!         3:0 minor_revision;
//!     }
//! }
//!
//! let mut backing = [0_u32; 0x400];
//! backing[0x40] = 0x10de_0a21;
//! let io = sys_mem::<0x1000, _>(&mut backing)?;
//!
//! let boot0 = io.read(BOOT_0);
//! assert_eq!((boot0.vendor_id().get(), boot0.major_revision().get()), (0x0a, 2));
//!
//! // Change fields and write the value back: constants are checked at build time.
//! io.write_reg(boot0.with_const_major_revision::<3>().with_vendor_id(0xff_u8));
//! // Or read, change and write back in one step.
//! io.update(BOOT_0, |r| r.with_const_minor_revision::<0xf>());
//! assert_eq!(backing[0x40], 0x10de_ff3f);
//!
//! // A value from nothing, even in a constant.
//! const V: BOOT_0 = BOOT_0::from_raw(0).with_const_major_revision::<1>();
//! assert_eq!(V.into_raw(), 0x10);
//! # Ok::<(), kernel_core::error::Error>(())
//! ```

use core::marker::PhantomData;

use super::{IoLoc, Region};
use crate::build_assert::build_assert;

/// What every register type is: its storage and its offset.
///
/// # Examples
///
/// ```
/// use kernel_core::io::register::{self, Register};
///
/// kernel_core::register! {
///     CTRL(u16) @ 0x8 {
///         0:0 go;
///     }
/// }
///
/// assert_eq!(<CTRL as Register>::OFFSET, 0x8);
/// let raw: <CTRL as Register>::Storage = 1;
/// assert!(CTRL::from(raw).go().into_bool());
/// ```
pub trait Register: Sized {
    /// The primitive the register is read and written as.
    type Storage: Into<Self> + From<Self>;

    /// The register's offset: in the region for a fixed register, from the base for a relative
    /// one, of the first element for an array.
    const OFFSET: usize;
}

/// A register at a fixed offset.
///
/// # Examples
///
/// ```
/// use kernel_core::io::register::FixedRegister;
///
/// kernel_core::register! {
///     STATUS(u32) @ 0x4 {
///         0:0 busy;
///     }
/// }
///
/// fn is_fixed<R: FixedRegister>() {}
/// is_fixed::<STATUS>();
/// ```
pub trait FixedRegister: Register {}

/// `()` locates a fixed register in writes, whose value carries its place:
/// `io.write((), value)`.
impl<const SIZE: usize, T> IoLoc<Region<SIZE>, T> for ()
where
    T: FixedRegister,
{
    type IoType = T::Storage;

    #[inline(always)]
    fn offset(self) -> usize {
        T::OFFSET
    }
}

/// A fixed register's value is its own location: `io.write(value, value)` is legal, if
/// redundant.
impl<const SIZE: usize, T> IoLoc<Region<SIZE>, T> for T
where
    T: FixedRegister,
{
    type IoType = T::Storage;

    #[inline(always)]
    fn offset(self) -> usize {
        T::OFFSET
    }
}

/// The location of fixed register `T`; `register!` defines a constant of this type named
/// after the register.
///
/// # Examples
///
/// ```
/// use kernel_core::io::register::FixedRegisterLoc;
/// use kernel_core::io::{IoLoc, Region};
///
/// kernel_core::register! {
///     DATA(u32) @ 0x20 {
///         31:0 value;
///     }
/// }
///
/// let loc: FixedRegisterLoc<DATA> = DATA;
/// assert_eq!(IoLoc::<Region<0x40>, DATA>::offset(loc), 0x20);
/// ```
pub struct FixedRegisterLoc<T: FixedRegister>(PhantomData<T>);

impl<T: FixedRegister> FixedRegisterLoc<T> {
    /// The location of `T`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::register::FixedRegisterLoc;
    ///
    /// kernel_core::register! {
    ///     DATA(u8) @ 0x3 {
    ///         7:0 value;
    ///     }
    /// }
    ///
    /// const AGAIN: FixedRegisterLoc<DATA> = FixedRegisterLoc::new();
    /// # let _ = AGAIN;
    /// ```
    // Not `Default`, which cannot be `const`.
    #[allow(clippy::new_without_default)]
    #[inline(always)]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<const SIZE: usize, T> IoLoc<Region<SIZE>, T> for FixedRegisterLoc<T>
where
    T: FixedRegister,
{
    type IoType = T::Storage;

    #[inline(always)]
    fn offset(self) -> usize {
        T::OFFSET
    }
}

/// A base that relative registers of family `T` are placed from: `B: RegisterBase<T>` puts
/// them at `B::BASE + OFFSET`.
///
/// `T` is any type (a zero-sized marker, typically) named in `register!`'s `@ T + offset`,
/// so that a register is used only with the bases meant for it.
///
/// # Examples
///
/// ```
/// use kernel_core::io::register::RegisterBase;
///
/// pub struct EngineBase;
/// pub struct Engine1;
/// impl RegisterBase<EngineBase> for Engine1 {
///     const BASE: usize = 0x1000;
/// }
/// assert_eq!(<Engine1 as RegisterBase<EngineBase>>::BASE, 0x1000);
/// ```
pub trait RegisterBase<T> {
    /// The address that the registers' offsets are added to.
    const BASE: usize;
}

/// A register placed from a base: relative registers and relative arrays.
///
/// # Examples
///
/// ```
/// use kernel_core::extras::io::sys_mem;
/// use kernel_core::io::register::{RegisterBase, WithBase};
/// use kernel_core::io::{register, Io};
///
/// pub struct EngineBase;
/// pub struct Engine1;
/// impl RegisterBase<EngineBase> for Engine1 {
///     const BASE: usize = 0x100;
/// }
///
/// register! {
///     ENGINE_CTL(u32) @ EngineBase + 0x8 {
///         0:0 run => bool;
///     }
/// }
///
/// let mut backing = [0_u32; 0x100];
/// let io = sys_mem::<0x400, _>(&mut backing)?;
/// io.update(ENGINE_CTL::of::<Engine1>(), |r| r.with_run(true));
/// assert_eq!(backing[0x42], 1); // 0x100 + 0x8
/// # Ok::<(), kernel_core::error::Error>(())
/// ```
pub trait WithBase {
    /// The family of bases the register is placed from.
    type BaseFamily;

    /// The location of the register placed from base `B`.
    #[inline(always)]
    fn of<B: RegisterBase<Self::BaseFamily>>() -> RelativeRegisterLoc<Self, B>
    where
        Self: Register,
    {
        RelativeRegisterLoc::new()
    }
}

/// A single register placed from a base.
///
/// # Examples
///
/// ```
/// use kernel_core::io::register::RelativeRegister;
///
/// pub struct Base;
/// kernel_core::register! {
///     CTL(u32) @ Base + 0x4 {
///         0:0 on;
///     }
/// }
///
/// fn is_relative<R: RelativeRegister>() {}
/// is_relative::<CTL>();
/// ```
pub trait RelativeRegister: Register + WithBase {}

/// The location of register `T` placed from base `B`; for a relative array, the array, of
/// which [`at`](RelativeRegisterLoc::at) picks an element.
///
/// # Examples
///
/// ```
/// use kernel_core::io::register::{RegisterBase, RelativeRegisterLoc, WithBase};
/// use kernel_core::io::{IoLoc, Region};
///
/// pub struct Base;
/// pub struct Second;
/// impl RegisterBase<Base> for Second {
///     const BASE: usize = 0x200;
/// }
/// kernel_core::register! {
///     CTL(u32) @ Base + 0x4 {
///         0:0 on;
///     }
/// }
///
/// let loc: RelativeRegisterLoc<CTL, Second> = CTL::of::<Second>();
/// assert_eq!(IoLoc::<Region<0x400>, CTL>::offset(loc), 0x204);
/// ```
pub struct RelativeRegisterLoc<T: WithBase, B: ?Sized>(PhantomData<T>, PhantomData<B>);

impl<T, B> RelativeRegisterLoc<T, B>
where
    T: Register + WithBase,
    B: RegisterBase<T::BaseFamily> + ?Sized,
{
    /// The location of `T` (or of the array `T`) placed from `B`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::register::{RegisterBase, RelativeRegisterLoc};
    ///
    /// pub struct Base;
    /// pub struct First;
    /// impl RegisterBase<Base> for First {
    ///     const BASE: usize = 0x100;
    /// }
    /// kernel_core::register! {
    ///     CTL(u32) @ Base + 0x4 {
    ///         0:0 on;
    ///     }
    /// }
    ///
    /// const LOC: RelativeRegisterLoc<CTL, First> = RelativeRegisterLoc::new();
    /// # let _ = LOC;
    /// ```
    // Not `Default`, which cannot be `const`.
    #[allow(clippy::new_without_default)]
    #[inline(always)]
    pub const fn new() -> Self {
        Self(PhantomData, PhantomData)
    }

    /// `B`'s base plus `T`'s offset, for both location types of relative registers.
    #[inline]
    const fn placed(self) -> usize {
        B::BASE + T::OFFSET
    }
}

impl<const SIZE: usize, T, B> IoLoc<Region<SIZE>, T> for RelativeRegisterLoc<T, B>
where
    T: RelativeRegister,
    B: RegisterBase<T::BaseFamily> + ?Sized,
{
    type IoType = T::Storage;

    #[inline(always)]
    fn offset(self) -> usize {
        self.placed()
    }
}

/// An array of registers of one layout: its number of elements and the bytes from one to the
/// next.
///
/// # Examples
///
/// ```
/// use kernel_core::io::register::RegisterArray;
///
/// kernel_core::register! {
///     LUT(u16)[32, stride = 4] @ 0x400 {
///         15:0 entry;
///     }
/// }
///
/// assert_eq!((<LUT as RegisterArray>::SIZE, <LUT as RegisterArray>::STRIDE), (32, 4));
/// ```
pub trait RegisterArray: Register {
    /// The number of registers.
    const SIZE: usize;
    /// The distance in bytes between the starts of two neighbouring registers.
    const STRIDE: usize;
}

/// The location of element `i` of register array `T`.
///
/// # Examples
///
/// ```
/// use kernel_core::io::register::RegisterArrayLoc;
/// use kernel_core::io::{IoLoc, Region};
///
/// kernel_core::register! {
///     LUT(u16)[32, stride = 4] @ 0x400 {
///         15:0 entry;
///     }
/// }
///
/// assert_eq!(IoLoc::<Region<0x1000>, LUT>::offset(RegisterArrayLoc::<LUT>::new(3)), 0x40c);
/// assert!(RegisterArrayLoc::<LUT>::try_new(32).is_none());
/// ```
pub struct RegisterArrayLoc<T: RegisterArray>(usize, PhantomData<T>);

impl<T: RegisterArray> RegisterArrayLoc<T> {
    /// The location of element `idx`, which must be proven below `T::SIZE` at build time.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::register::RegisterArrayLoc;
    ///
    /// kernel_core::register! {
    ///     LUT(u8)[8] @ 0x0 {
    ///         7:0 entry;
    ///     }
    /// }
    ///
    /// let _last = RegisterArrayLoc::<LUT>::new(7);
    /// ```
    #[inline(always)]
    pub fn new(idx: usize) -> Self {
        build_assert!(idx < T::SIZE);
        Self(idx, PhantomData)
    }

    /// The location of element `idx`, or `None` if `idx` is not below `T::SIZE`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::register::RegisterArrayLoc;
    ///
    /// kernel_core::register! {
    ///     LUT(u8)[8] @ 0x0 {
    ///         7:0 entry;
    ///     }
    /// }
    ///
    /// assert!(RegisterArrayLoc::<LUT>::try_new(7).is_some());
    /// assert!(RegisterArrayLoc::<LUT>::try_new(8).is_none());
    /// ```
    #[inline(always)]
    pub fn try_new(idx: usize) -> Option<Self> {
        (idx < T::SIZE).then_some(Self(idx, PhantomData))
    }
}

impl<const SIZE: usize, T> IoLoc<Region<SIZE>, T> for RegisterArrayLoc<T>
where
    T: RegisterArray,
{
    type IoType = T::Storage;

    #[inline(always)]
    fn offset(self) -> usize {
        T::OFFSET + self.0 * T::STRIDE
    }
}

/// The locations of the elements of a register array, which `register!` implements for every
/// array (`NAME::at(3)`, or `Array::at(3)` where the type is inferred).
///
/// # Examples
///
/// ```
/// use kernel_core::extras::io::sys_mem;
/// use kernel_core::io::register::Array;
/// use kernel_core::io::{register, Io};
///
/// register! {
///     SCRATCH(u32)[4] @ 0x10 {
///         31:0 value;
///     }
/// }
///
/// let mut backing = [0_u32; 16];
/// let io = sys_mem::<0x40, _>(&mut backing)?;
/// io.write(Array::at(3), SCRATCH::from(0xabcd));
/// assert_eq!(io.read(SCRATCH::at(3)).value().get(), 0xabcd);
/// assert!(SCRATCH::try_at(4).is_none());
/// assert_eq!(backing[7], 0xabcd); // 0x10 + 3 * 4
/// # Ok::<(), kernel_core::error::Error>(())
/// ```
pub trait Array {
    /// The location of element `idx`, which must be proven in bounds at build time.
    #[inline(always)]
    fn at(idx: usize) -> RegisterArrayLoc<Self>
    where
        Self: RegisterArray,
    {
        RegisterArrayLoc::new(idx)
    }

    /// The location of element `idx`, or `None` if it is out of bounds.
    #[inline(always)]
    fn try_at(idx: usize) -> Option<RegisterArrayLoc<Self>>
    where
        Self: RegisterArray,
    {
        RegisterArrayLoc::try_new(idx)
    }
}

/// An array of registers placed from a base.
///
/// # Examples
///
/// ```
/// use kernel_core::io::register::RelativeRegisterArray;
///
/// pub struct Base;
/// kernel_core::register! {
///     QUEUE(u32)[8] @ Base + 0x40 {
///         31:0 head;
///     }
/// }
///
/// fn is_relative_array<R: RelativeRegisterArray>() {}
/// is_relative_array::<QUEUE>();
/// ```
pub trait RelativeRegisterArray: RegisterArray + WithBase {}

/// The location of element `i` of relative register array `T` placed from base `B`.
///
/// # Examples
///
/// ```
/// use kernel_core::io::register::{RegisterBase, RelativeRegisterArrayLoc};
/// use kernel_core::io::{IoLoc, Region};
///
/// pub struct Base;
/// pub struct Second;
/// impl RegisterBase<Base> for Second {
///     const BASE: usize = 0x800;
/// }
/// kernel_core::register! {
///     QUEUE(u32)[8] @ Base + 0x40 {
///         31:0 head;
///     }
/// }
///
/// let loc = RelativeRegisterArrayLoc::<QUEUE, Second>::new(2);
/// assert_eq!(IoLoc::<Region<0x1000>, QUEUE>::offset(loc), 0x848);
/// ```
pub struct RelativeRegisterArrayLoc<
    T: RelativeRegisterArray,
    B: RegisterBase<T::BaseFamily> + ?Sized,
>(RelativeRegisterLoc<T, B>, usize);

impl<T, B> RelativeRegisterArrayLoc<T, B>
where
    T: RelativeRegisterArray,
    B: RegisterBase<T::BaseFamily> + ?Sized,
{
    /// The location of element `idx` from base `B`, which must be proven below `T::SIZE` at
    /// build time.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::register::{RegisterBase, RelativeRegisterArrayLoc};
    ///
    /// pub struct Base;
    /// pub struct First;
    /// impl RegisterBase<Base> for First {
    ///     const BASE: usize = 0;
    /// }
    /// kernel_core::register! {
    ///     QUEUE(u32)[8] @ Base + 0x40 {
    ///         31:0 head;
    ///     }
    /// }
    ///
    /// let _last = RelativeRegisterArrayLoc::<QUEUE, First>::new(7);
    /// ```
    #[inline(always)]
    pub fn new(idx: usize) -> Self {
        build_assert!(idx < T::SIZE);
        Self(RelativeRegisterLoc::new(), idx)
    }

    /// The location of element `idx` from base `B`, or `None` if `idx` is not below
    /// `T::SIZE`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::register::{RegisterBase, RelativeRegisterArrayLoc};
    ///
    /// pub struct Base;
    /// pub struct First;
    /// impl RegisterBase<Base> for First {
    ///     const BASE: usize = 0;
    /// }
    /// kernel_core::register! {
    ///     QUEUE(u32)[8] @ Base + 0x40 {
    ///         31:0 head;
    ///     }
    /// }
    ///
    /// assert!(RelativeRegisterArrayLoc::<QUEUE, First>::try_new(8).is_none());
    /// ```
    #[inline(always)]
    pub fn try_new(idx: usize) -> Option<Self> {
        (idx < T::SIZE).then_some(Self(RelativeRegisterLoc::new(), idx))
    }
}

/// Picking an element of a relative array placed from a base.
impl<T, B> RelativeRegisterLoc<T, B>
where
    T: RelativeRegisterArray,
    B: RegisterBase<T::BaseFamily> + ?Sized,
{
    /// The location of element `idx`, which must be proven in bounds at build time.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::register::{RegisterBase, WithBase};
    /// use kernel_core::io::{IoLoc, Region};
    ///
    /// pub struct Base;
    /// pub struct First;
    /// impl RegisterBase<Base> for First {
    ///     const BASE: usize = 0x100;
    /// }
    /// kernel_core::register! {
    ///     QUEUE(u32)[8, stride = 0x10] @ Base + 0x40 {
    ///         31:0 head;
    ///     }
    /// }
    ///
    /// let loc = QUEUE::of::<First>().at(2);
    /// assert_eq!(IoLoc::<Region<0x1000>, QUEUE>::offset(loc), 0x160);
    /// ```
    #[inline(always)]
    pub fn at(self, idx: usize) -> RelativeRegisterArrayLoc<T, B> {
        RelativeRegisterArrayLoc::new(idx)
    }

    /// The location of element `idx`, or `None` if it is out of bounds.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::register::{RegisterBase, WithBase};
    ///
    /// pub struct Base;
    /// pub struct First;
    /// impl RegisterBase<Base> for First {
    ///     const BASE: usize = 0x100;
    /// }
    /// kernel_core::register! {
    ///     QUEUE(u32)[8] @ Base + 0x40 {
    ///         31:0 head;
    ///     }
    /// }
    ///
    /// assert!(QUEUE::of::<First>().try_at(8).is_none());
    /// ```
    #[inline(always)]
    pub fn try_at(self, idx: usize) -> Option<RelativeRegisterArrayLoc<T, B>> {
        RelativeRegisterArrayLoc::try_new(idx)
    }
}

impl<const SIZE: usize, T, B> IoLoc<Region<SIZE>, T> for RelativeRegisterArrayLoc<T, B>
where
    T: RelativeRegisterArray,
    B: RegisterBase<T::BaseFamily> + ?Sized,
{
    type IoType = T::Storage;

    #[inline(always)]
    fn offset(self) -> usize {
        self.0.placed() + self.1 * T::STRIDE
    }
}

/// A register value together with the location to write it at, for
/// [`Io::write_reg`](super::Io::write_reg): the value of a fixed register is one.
///
/// # Examples
///
/// ```
/// use kernel_core::io::register::LocatedRegister;
/// use kernel_core::io::{IoLoc, Region};
///
/// kernel_core::register! {
///     CMD(u32) @ 0x30 {
///         7:0 opcode;
///     }
/// }
///
/// let (loc, value) = LocatedRegister::<Region<0x40>>::into_io_op(CMD::from(0x12));
/// assert_eq!((IoLoc::<Region<0x40>, CMD>::offset(loc), value.into_raw()), (0x30, 0x12));
/// ```
pub trait LocatedRegister<Base: ?Sized> {
    /// The register written.
    type Value: Register;
    /// Where it is written.
    type Location: IoLoc<Base, Self::Value>;

    /// The location and the value, for one write.
    fn into_io_op(self) -> (Self::Location, Self::Value);
}

impl<const SIZE: usize, T> LocatedRegister<Region<SIZE>> for T
where
    T: FixedRegister,
{
    type Location = FixedRegisterLoc<T>;
    type Value = T;

    #[inline(always)]
    fn into_io_op(self) -> (FixedRegisterLoc<T>, T) {
        (FixedRegisterLoc::new(), self)
    }
}

/// Declares register types: a [`bitfield!`](crate::bitfield!) type for each, with its place in
/// an I/O region, for [`Io`](crate::io::Io)'s `read`, `write`, `update` and `write_reg`.
///
/// The syntax is Linux 7.3's. Each declaration, several in one invocation if wished, is
///
/// ```text
/// $(#[attr])* $vis NAME(storage) PLACE { fields as in bitfield! }
/// ```
///
/// where `storage` is `u8`, `u16`, `u32` or `u64` and `PLACE` is one of:
///
/// - `@ 0x100`: a fixed register at that offset (a literal). It implements
///   [`FixedRegister`], and a constant `NAME` of type [`FixedRegisterLoc<NAME>`] is its
///   location, with the register's attributes and visibility.
/// - `@ Base + 0x10`: a register at that offset from any base `B: RegisterBase<Base>`
///   ([`RelativeRegister`], located with [`WithBase::of::<B>()`](WithBase::of)).
/// - `[N] @ 0x100` or `[N, stride = S] @ 0x100`: an array of `N` registers `S` bytes apart
///   (`S` defaults to the storage's size; a stride below it fails the build). Located with
///   [`Array::at`] (index checked at build time) or [`Array::try_at`] (at run time).
/// - `[N] @ Base + 0x10`, `[N, stride = S] @ Base + 0x10`: an array from a base
///   ([`RelativeRegisterArray`]): `NAME::of::<B>().at(i)`.
/// - `=> OTHER`, `=> Base + OTHER`: an alias, with its own fields, of register `OTHER` (fixed,
///   or relative to the same family of bases).
/// - `=> OTHER[i]`, `=> Base + OTHER[i]`: an alias of element `i` of array `OTHER` (`i` past
///   the array fails the build); it is a fixed register, or relative to `Base`.
///
/// Offsets are checked against the region when accessed: [`Io::read`](crate::io::Io::read)
/// and its siblings fail the build for a place that is not proven inside the region's
/// minimum size or is misaligned, [`Io::try_read`](crate::io::Io::try_read) and its siblings
/// return `EINVAL`.
///
/// # Examples
///
/// ```
/// use kernel_core::extras::io::sys_mem;
/// use kernel_core::io::register::{Array, RegisterBase, WithBase};
/// use kernel_core::io::{register, Io};
/// use kernel_core::prelude::*;
///
/// pub struct CpuBase;
/// pub struct Cpu0;
/// impl RegisterBase<CpuBase> for Cpu0 {
///     const BASE: usize = 0x100;
/// }
/// pub struct Cpu1;
/// impl RegisterBase<CpuBase> for Cpu1 {
///     const BASE: usize = 0x200;
/// }
///
/// register! {
///     /// Scratch registers.
///     pub SCRATCH(u32)[8] @ 0x20 {
///         31:0 value;
///     }
///     /// What the firmware leaves in `SCRATCH[2]`.
///     pub FW_STATUS(u32) => SCRATCH[2] {
///         7:0 code;
///     }
///     /// A CPU's control register.
///     pub CPU_CTL(u32) @ CpuBase + 0x10 {
///         0:0 start => bool;
///     }
///     /// Per-CPU mailboxes, 8 bytes apart.
///     pub CPU_MBOX(u16)[4, stride = 8] @ CpuBase + 0x40 {
///         15:0 message;
///     }
/// }
///
/// let mut backing = [0_u32; 0x100];
/// let io = sys_mem::<0x400, _>(&mut backing)?;
///
/// io.write(SCRATCH::at(2), SCRATCH::from(0x1ee7));
/// assert_eq!(io.read(FW_STATUS).code().get(), 0xe7);
/// io.write(WithBase::of::<Cpu1>(), CPU_CTL::zeroed().with_start(true));
/// io.write(CPU_MBOX::of::<Cpu0>().at(3), CPU_MBOX::from(0xabcd));
///
/// let index = 9; // known at run time only
/// assert!(SCRATCH::try_at(index).is_none());
/// assert_eq!(backing[(0x20 + 2 * 4) / 4], 0x1ee7);
/// assert_eq!(backing[0x210 / 4], 1);
/// // A `u16` in the first half of a word: its low half on little-endian CPUs only.
/// assert_eq!(backing[(0x100 + 0x40 + 3 * 8) / 4].to_ne_bytes()[..2], 0xabcd_u16.to_ne_bytes());
/// # Ok::<(), kernel_core::error::Error>(())
/// ```
#[macro_export]
macro_rules! register {
    // Every declaration, normalized: its attributes, visibility, name and storage, then its
    // array part, its place and its alias part, each in brackets (empty when absent).
    (
        $(
            $(#[$attr:meta])* $vis:vis $name:ident ($storage:ty)
                $([ $size:expr $(, stride = $stride:expr)? ])?
                $(@ $($base:ident +)? $offset:literal)?
                $(=> $alias:ident $(+ $alias_offset:ident)? $([$alias_idx:expr])? )?
            { $($fields:tt)* }
        )*
    ) => {$(
        $crate::register!(
            @declare [$(#[$attr])*] [$vis] $name [$storage]
            [$($size $(, $stride)?)?]
            [$($($base +)? $offset)?]
            [$($alias $(+ $alias_offset)? $([$alias_idx])?)?]
            { $($fields)* }
        );
    )*};

    // A fixed register.
    (@declare [$($attr:tt)*] [$vis:vis] $name:ident [$storage:ty] [] [$offset:literal] []
        { $($fields:tt)* }) => {
        $crate::register!(@type [$($attr)*] [$vis] $name [$storage] { $($fields)* });
        $crate::register!(@offset $name [$storage] $offset);
        $crate::register!(@fixed [$($attr)*] [$vis] $name);
    };

    // A register relative to a base.
    (@declare [$($attr:tt)*] [$vis:vis] $name:ident [$storage:ty] []
        [$base:ident + $offset:literal] [] { $($fields:tt)* }) => {
        $crate::register!(@type [$($attr)*] [$vis] $name [$storage] { $($fields)* });
        $crate::register!(@offset $name [$storage] $offset);
        $crate::register!(@relative $name $base);
    };

    // An array of registers, contiguous.
    (@declare [$($attr:tt)*] [$vis:vis] $name:ident [$storage:ty] [$size:expr]
        [$($place:tt)+] [] { $($fields:tt)* }) => {
        $crate::register!(
            @declare [$($attr)*] [$vis] $name [$storage]
            [$size, ::core::mem::size_of::<$storage>()] [$($place)+] [] { $($fields)* }
        );
    };

    // An array of registers at a fixed offset.
    (@declare [$($attr:tt)*] [$vis:vis] $name:ident [$storage:ty] [$size:expr, $stride:expr]
        [$offset:literal] [] { $($fields:tt)* }) => {
        $crate::register!(@stride [$storage] $stride);
        $crate::register!(@type [$($attr)*] [$vis] $name [$storage] { $($fields)* });
        $crate::register!(@offset $name [$storage] $offset);
        $crate::register!(@array $name $size, $stride);
        impl $crate::io::register::Array for $name {}
    };

    // An array of registers relative to a base.
    (@declare [$($attr:tt)*] [$vis:vis] $name:ident [$storage:ty] [$size:expr, $stride:expr]
        [$base:ident + $offset:literal] [] { $($fields:tt)* }) => {
        $crate::register!(@stride [$storage] $stride);
        $crate::register!(@type [$($attr)*] [$vis] $name [$storage] { $($fields)* });
        $crate::register!(@offset $name [$storage] $offset);
        $crate::register!(@array $name $size, $stride);
        impl $crate::io::register::WithBase for $name {
            type BaseFamily = $base;
        }
        impl $crate::io::register::RelativeRegisterArray for $name {}
    };

    // An alias of a fixed register.
    (@declare [$($attr:tt)*] [$vis:vis] $name:ident [$storage:ty] [] [] [$alias:ident]
        { $($fields:tt)* }) => {
        $crate::register!(@type [$($attr)*] [$vis] $name [$storage] { $($fields)* });
        $crate::register!(
            @offset $name [$storage] <$alias as $crate::io::register::Register>::OFFSET
        );
        $crate::register!(@fixed [$($attr)*] [$vis] $name);
    };

    // An alias of a relative register.
    (@declare [$($attr:tt)*] [$vis:vis] $name:ident [$storage:ty] [] []
        [$base:ident + $alias:ident] { $($fields:tt)* }) => {
        $crate::register!(@type [$($attr)*] [$vis] $name [$storage] { $($fields)* });
        $crate::register!(
            @offset $name [$storage] <$alias as $crate::io::register::Register>::OFFSET
        );
        $crate::register!(@relative $name $base);
    };

    // An alias of an element of an array: a fixed register.
    (@declare [$($attr:tt)*] [$vis:vis] $name:ident [$storage:ty] [] []
        [$alias:ident [$idx:expr]] { $($fields:tt)* }) => {
        $crate::register!(@index $alias [$idx]);
        $crate::register!(@type [$($attr)*] [$vis] $name [$storage] { $($fields)* });
        $crate::register!(@offset $name [$storage] $crate::register!(@element $alias [$idx]));
        $crate::register!(@fixed [$($attr)*] [$vis] $name);
    };

    // An alias of an element of a relative array: a relative register.
    (@declare [$($attr:tt)*] [$vis:vis] $name:ident [$storage:ty] [] []
        [$base:ident + $alias:ident [$idx:expr]] { $($fields:tt)* }) => {
        $crate::register!(@index $alias [$idx]);
        $crate::register!(@type [$($attr)*] [$vis] $name [$storage] { $($fields)* });
        $crate::register!(@offset $name [$storage] $crate::register!(@element $alias [$idx]));
        $crate::register!(@relative $name $base);
    };

    // Anything else: a place and an alias together, or an array alias.
    (@declare [$($attr:tt)*] [$vis:vis] $name:ident $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "register `", ::core::stringify!($name), "` needs exactly one place: `@ offset`, ",
            "`@ Base + offset` (either after an optional `[size]` or `[size, stride = s]`), or ",
            "`=> ALIAS`, `=> Base + ALIAS`, `=> ALIAS[index]`, `=> Base + ALIAS[index]`"
        ));
    };

    // The register's type, with its fields.
    (@type [$($attr:tt)*] [$vis:vis] $name:ident [$storage:ty] { $($fields:tt)* }) => {
        $crate::bitfield!(
            #[allow(non_camel_case_types)]
            $($attr)* $vis struct $name($storage) { $($fields)* }
        );
    };

    // What every register has.
    (@offset $name:ident [$storage:ty] $offset:expr) => {
        impl $crate::io::register::Register for $name {
            type Storage = $storage;

            const OFFSET: usize = $offset;
        }
    };

    // A fixed register, and its location constant.
    (@fixed [$($attr:tt)*] [$vis:vis] $name:ident) => {
        impl $crate::io::register::FixedRegister for $name {}

        $($attr)*
        $vis const $name: $crate::io::register::FixedRegisterLoc<$name> =
            $crate::io::register::FixedRegisterLoc::<$name>::new();
    };

    // A single register relative to a base.
    (@relative $name:ident $base:ident) => {
        impl $crate::io::register::WithBase for $name {
            type BaseFamily = $base;
        }

        impl $crate::io::register::RelativeRegister for $name {}
    };

    // What every array has.
    (@array $name:ident $size:expr, $stride:expr) => {
        impl $crate::io::register::RegisterArray for $name {
            const SIZE: usize = $size;
            const STRIDE: usize = $stride;
        }
    };

    // Neighbouring elements of an array must not overlap.
    (@stride [$storage:ty] $stride:expr) => {
        $crate::build_assert::static_assert!(
            ::core::mem::size_of::<$storage>() <= $stride,
            "register!: the stride of a register array is smaller than its storage"
        );
    };

    // An alias's index must be inside the array.
    (@index $alias:ident [$idx:expr]) => {
        $crate::build_assert::static_assert!(
            $idx < <$alias as $crate::io::register::RegisterArray>::SIZE,
            "register!: the alias's index is past the end of the register array"
        );
    };

    // The offset of element `idx` of an array.
    (@element $alias:ident [$idx:expr]) => {
        <$alias as $crate::io::register::Register>::OFFSET
            + $idx * <$alias as $crate::io::register::RegisterArray>::STRIDE
    };
}
