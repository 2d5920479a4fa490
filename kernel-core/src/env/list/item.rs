// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Implementing [`ListItem`](super::ListItem) without `unsafe`: [`HasListLinks`],
//! [`HasSelfPtr`] and their macros, and `impl_list_item!`, which writes `ListItem` for a type
//! from the path of its links field.

/// A type with a [`ListLinks<ID>`](super::ListLinks) field, at a fixed place: what
/// `impl_list_item!` needs. Implement it with `impl_has_list_links!` (which `impl_list_item!`
/// calls); a [`ListItem`](super::ListItem) written by hand does not need it.
///
/// # Safety
///
/// `raw_get_list_links` returns the address of a `ListLinks<ID>` field of `*ptr`, the same
/// field for every value, computed without following any pointer (as
/// `impl_has_list_links!` writes it).
///
/// # Examples
///
/// ```
/// use kernel_core::list::{impl_has_list_links, HasListLinks, ListLinks};
///
/// struct Holder {
///     links: ListLinks,
/// }
///
/// struct Item {
///     value: u32,
///     holder: Holder,
/// }
///
/// impl_has_list_links! {
///     impl HasListLinks<0> for Item { self.holder.links }
/// }
///
/// fn has_links<T: HasListLinks>() {}
/// has_links::<Item>();
/// ```
pub unsafe trait HasListLinks<const ID: u64 = 0> {
    /// The address of the [`ListLinks<ID>`](super::ListLinks) field of the value at `ptr`.
    ///
    /// # Safety
    ///
    /// `ptr` points to a valid `Self`.
    unsafe fn raw_get_list_links(ptr: *mut Self) -> *mut super::ListLinks<ID>;
}

/// Implements [`HasListLinks`] for a type, given the path of its
/// [`ListLinks`](super::ListLinks) field (`self.links`, or through nested structs,
/// `self.inner.links`). The path may not go through a pointer: it must be a place inside the
/// value (checked with `offset_of!`). Generic parameters go in braces after `impl`.
///
/// # Examples
///
/// See [`HasListLinks`].
///
/// ```
/// use kernel_core::list::{impl_has_list_links, HasListLinks, ListLinks};
///
/// struct Pair<T> {
///     first: ListLinks<0>,
///     second: ListLinks<1>,
///     value: T,
/// }
///
/// impl_has_list_links! {
///     impl{T} HasListLinks<0> for Pair<T> { self.first }
///     impl{T} HasListLinks<1> for Pair<T> { self.second }
/// }
///
/// fn has_links<T: HasListLinks<0> + HasListLinks<1>>() {}
/// has_links::<Pair<u8>>();
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_impl_has_list_links {
    ($(impl$({$($generics:tt)*})?
       HasListLinks$(<$id:tt>)?
       for $self:ty
       { self$(.$field:ident)* }
    )*) => {$(
        // SAFETY: The address is that of the field at the given path, which only compiles if
        // the field has the type of the `ListLinks` returned, and which follows no pointer
        // (`offset_of!` only takes fields of the value itself).
        unsafe impl$(<$($generics)*>)? $crate::list::HasListLinks$(<$id>)? for $self {
            #[inline]
            unsafe fn raw_get_list_links(ptr: *mut Self) -> *mut $crate::list::ListLinks$(<$id>)? {
                // Compiles only if the path names fields of `Self` itself, through no
                // dereference. In a function, not a constant, where `Self` may be generic.
                if false {
                    let _: usize = ::core::mem::offset_of!(Self, $($field).*);
                }

                // SAFETY: The caller promises `ptr` is valid, and the path follows no pointer
                // (checked above): this only computes an address inside the value.
                unsafe { ::core::ptr::addr_of_mut!((*ptr)$(.$field)*) }
            }
        }
    )*};
}

pub use crate::__kernel_core_impl_has_list_links as impl_has_list_links;

/// A type whose [`ListLinks<ID>`](super::ListLinks) (of [`HasListLinks<ID>`]) are the `inner`
/// field of a [`ListLinksSelfPtr<T, ID>`](super::ListLinksSelfPtr). Implement it with
/// `impl_has_list_links_self_ptr!` (which `impl_list_item!` calls for `using
/// ListLinksSelfPtr`).
///
/// # Safety
///
/// The links that `HasListLinks<ID>::raw_get_list_links` returns are inside a
/// `ListLinksSelfPtr<T, ID>`.
///
/// # Examples
///
/// ```
/// use kernel_core::list::{impl_has_list_links_self_ptr, HasSelfPtr, ListLinksSelfPtr};
///
/// struct Item {
///     links: ListLinksSelfPtr<Item>,
/// }
///
/// impl_has_list_links_self_ptr! {
///     impl HasSelfPtr<Item> for Item { self.links }
/// }
///
/// fn has_self_ptr<T: HasSelfPtr<T>>() {}
/// has_self_ptr::<Item>();
/// ```
pub unsafe trait HasSelfPtr<T: ?Sized, const ID: u64 = 0>
where
    Self: HasListLinks<ID>,
{
}

/// Implements [`HasSelfPtr<T, ID>`] and [`HasListLinks<ID>`] for a type, given the path of its
/// [`ListLinksSelfPtr<T, ID>`](super::ListLinksSelfPtr) field. Generic parameters go in
/// braces after `impl`.
///
/// # Examples
///
/// See [`HasSelfPtr`].
///
/// ```
/// use kernel_core::list::{
///     impl_has_list_links_self_ptr, HasListLinks, HasSelfPtr, ListLinksSelfPtr,
/// };
///
/// trait Message {}
///
/// struct Envelope<T: ?Sized> {
///     links: ListLinksSelfPtr<Envelope<dyn Message>, 3>,
///     body: T,
/// }
///
/// impl_has_list_links_self_ptr! {
///     impl{T: ?Sized} HasSelfPtr<Envelope<dyn Message>, 3> for Envelope<T> { self.links }
/// }
///
/// fn has_self_ptr<T: ?Sized + HasSelfPtr<Envelope<dyn Message>, 3> + HasListLinks<3>>() {}
/// has_self_ptr::<Envelope<dyn Message>>();
/// has_self_ptr::<Envelope<u32>>();
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_impl_has_list_links_self_ptr {
    ($(impl$({$($generics:tt)*})?
       HasSelfPtr<$item_type:ty $(, $id:tt)?>
       for $self:ty
       { self$(.$field:ident)* }
    )*) => {$(
        // SAFETY: The links are the `inner` field of the `ListLinksSelfPtr` at the path, which
        // `HasListLinks` below returns (a pointer to the struct is a pointer to its first field,
        // `inner`: it is `#[repr(C)]`).
        unsafe impl$(<$($generics)*>)? $crate::list::HasSelfPtr<$item_type $(, $id)?> for $self {}

        // SAFETY: The address is that of the `ListLinks` inside the field at the given path,
        // which only compiles if that field is a `ListLinksSelfPtr` of the right types. The
        // path follows no pointer: a `ListLinksSelfPtr` field of a pointee would not be in the
        // value, and `container_of!` in `impl_list_item!` would compute a wrong address; as in
        // the kernel, nothing checks it here.
        unsafe impl$(<$($generics)*>)? $crate::list::HasListLinks$(<$id>)? for $self {
            #[inline]
            unsafe fn raw_get_list_links(ptr: *mut Self) -> *mut $crate::list::ListLinks$(<$id>)? {
                let ptr: *mut $crate::list::ListLinksSelfPtr<$item_type $(, $id)?> =
                    // SAFETY: The caller promises that `ptr` is valid; this only computes an
                    // address.
                    unsafe { ::core::ptr::addr_of_mut!((*ptr)$(.$field)*) };
                // `inner` is the first field of the `#[repr(C)]` `ListLinksSelfPtr`.
                ptr.cast()
            }
        }
    )*};
}

pub use crate::__kernel_core_impl_has_list_links_self_ptr as impl_has_list_links_self_ptr;

/// The pointer to the `$Container` whose field at `$fields` is at `$field_ptr` (C's
/// `container_of()`): what `impl_list_item!` expands to, where Linux 7.3's names
/// `kernel::container_of!`. An `unsafe` operation: the field pointer and the result are in
/// the same allocation.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_list_container_of {
    ($field_ptr:expr, $Container:ty, $($fields:tt)*) => {{
        let field_ptr = $field_ptr;
        let container_ptr = field_ptr
            .byte_sub(::core::mem::offset_of!($Container, $($fields)*))
            .cast::<$Container>();
        // The field at the path has the type of `field_ptr`'s pointee: the elements of an
        // array have one type.
        if false {
            let _ = [field_ptr, ::core::ptr::addr_of_mut!((*container_ptr).$($fields)*)];
        }
        container_ptr
    }};
}

/// Implements [`ListItem<ID>`](super::ListItem) for a type, through its links field (and
/// [`HasListLinks<ID>`], with `impl_has_list_links!`):
///
/// - `using ListLinks { self.path };`: a [`ListLinks<ID>`](super::ListLinks) field; the value
///   is found from its links with `container_of!`, so the type must be `Sized`;
/// - `using ListLinksSelfPtr { self.path };`: a
///   [`ListLinksSelfPtr<Self, ID>`](super::ListLinksSelfPtr) field; the value is found through
///   the pointer stored when it goes into a list, so the type may be a trait object's
///   (`Wrap<dyn Trait>`).
///
/// The type must implement [`ListArcSafe<ID>`](super::ListArcSafe) too (with
/// `impl_list_arc_safe!`). Generic parameters go in braces after `impl`; several impls of one
/// form go in one invocation.
///
/// # Examples
///
/// ```
/// use kernel_core::list::{impl_list_arc_safe, impl_list_item, List, ListArc, ListLinks};
/// use kernel_core::prelude::*;
///
/// #[pin_data]
/// struct Simple {
///     value: u32,
///     #[pin]
///     links: ListLinks,
/// }
/// impl_list_arc_safe! {
///     impl ListArcSafe<0> for Simple { untracked; }
/// }
/// impl_list_item! {
///     impl ListItem<0> for Simple { using ListLinks { self.links }; }
/// }
///
/// // Links inside a field of the value, in a generic type.
/// struct Holder {
///     inner: ListLinks,
/// }
///
/// #[pin_data]
/// struct Complex<T, U> {
///     value: Result<T, U>,
///     #[pin]
///     holder: Holder,
/// }
/// impl_list_arc_safe! {
///     impl{T, U} ListArcSafe<0> for Complex<T, U> { untracked; }
/// }
/// impl_list_item! {
///     impl{T, U} ListItem<0> for Complex<T, U> { using ListLinks { self.holder.inner }; }
/// }
///
/// let mut list = List::<Simple>::new();
/// list.push_back(ListArc::pin_init(
///     try_pin_init!(Simple { value: 1, links <- ListLinks::new() }),
///     GFP_KERNEL,
/// )?);
/// assert_eq!(list.iter().next().map(|s| s.value), Some(1));
/// let complex: List<Complex<u8, i8>> = List::new();
/// assert!(complex.is_empty());
/// # Ok::<(), Error>(())
/// ```
///
/// With a [`ListLinksSelfPtr`](super::ListLinksSelfPtr):
///
/// ```
/// use kernel_core::list::{
///     impl_list_arc_safe, impl_list_item, List, ListArc, ListLinksSelfPtr,
/// };
/// use kernel_core::prelude::*;
///
/// #[pin_data]
/// struct Simple {
///     value: u32,
///     #[pin]
///     links: ListLinksSelfPtr<Simple>,
/// }
/// impl_list_arc_safe! {
///     impl ListArcSafe<0> for Simple { untracked; }
/// }
/// impl_list_item! {
///     impl ListItem<0> for Simple { using ListLinksSelfPtr { self.links }; }
/// }
///
/// let mut list = List::<Simple>::new();
/// for value in [3, 4] {
///     list.push_front(ListArc::pin_init(
///         try_pin_init!(Simple { value, links <- ListLinksSelfPtr::new() }),
///         GFP_KERNEL,
///     )?);
/// }
/// assert_eq!(list.iter().map(|s| s.value).sum::<u32>(), 7);
/// # Ok::<(), Error>(())
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_impl_list_item {
    (
        $(impl$({$($generics:tt)*})? ListItem<$num:tt> for $self:ty {
            using ListLinks { self$(.$field:ident)* };
        })*
    ) => {$(
        $crate::list::impl_has_list_links! {
            impl$({$($generics)*})? HasListLinks<$num> for $self { self$(.$field)* }
        }

        // SAFETY: Each function keeps its promises (the GUARANTEES below).
        unsafe impl$(<$($generics)*>)? $crate::list::ListItem<$num> for $self {
            // GUARANTEES: The field's address never changes, so this is what
            // `prepare_to_insert` returned (it calls this); out of a list, the links hold two
            // null pointers (`ListLinks`' invariant).
            unsafe fn view_links(me: *const Self) -> *mut $crate::list::ListLinks<$num> {
                // SAFETY: The caller promises that `me` points to a valid `Self`.
                unsafe {
                    <Self as $crate::list::HasListLinks<$num>>::raw_get_list_links(me.cast_mut())
                }
            }

            // GUARANTEES: `me` is the field's address that `prepare_to_insert` computed from
            // the pointer it was given, and this undoes that computation: the same pointer.
            // The caller of `prepare_to_insert` keeps the `ListArc`, so the value stays alive,
            // until `post_remove`.
            unsafe fn view_value(me: *mut $crate::list::ListLinks<$num>) -> *const Self {
                // SAFETY: `me` is the field at the path in a `Self`, so the `Self` around it is
                // in the same allocation.
                unsafe { $crate::__kernel_core_list_container_of!(me, Self, $($field).*) }
            }

            // GUARANTEES: Calls to `prepare_to_insert` and `post_remove` alternate, and
            // `post_remove` ends the exclusive access, so it is never given twice at once. No
            // other `impl_list_item!` gives out these links: there is one `ListItem<$num>`
            // impl for the type, and a `ListLinks<$num>` field serves that `$num` only.
            unsafe fn prepare_to_insert(me: *const Self) -> *mut $crate::list::ListLinks<$num> {
                // SAFETY: The caller promises that `me` points to a valid `Self`.
                unsafe { <Self as $crate::list::ListItem<$num>>::view_links(me) }
            }

            // GUARANTEES: As `view_value`: the pointer `prepare_to_insert` was given.
            unsafe fn post_remove(me: *mut $crate::list::ListLinks<$num>) -> *const Self {
                // SAFETY: `me` is the field at the path in a `Self`, so the `Self` around it is
                // in the same allocation.
                unsafe { $crate::__kernel_core_list_container_of!(me, Self, $($field).*) }
            }
        }
    )*};

    (
        $(impl$({$($generics:tt)*})? ListItem<$num:tt> for $self:ty {
            using ListLinksSelfPtr { self$(.$field:ident)* };
        })*
    ) => {$(
        $crate::list::impl_has_list_links_self_ptr! {
            impl$({$($generics)*})? HasSelfPtr<$self> for $self { self$(.$field)* }
        }

        // SAFETY: Each function keeps its promises (the GUARANTEES below).
        unsafe impl$(<$($generics)*>)? $crate::list::ListItem<$num> for $self {
            // GUARANTEES: Calls to `prepare_to_insert` and `post_remove` alternate, and
            // `post_remove` ends the exclusive access, so it is never given twice at once. No
            // other `impl_list_item!` gives out these links: there is one `ListItem<$num>`
            // impl for the type, and a `ListLinks<$num>` field serves that `$num` only.
            unsafe fn prepare_to_insert(me: *const Self) -> *mut $crate::list::ListLinks<$num> {
                // SAFETY: The caller promises that `me` points to a valid `Self`.
                let links = unsafe { <Self as $crate::list::ListItem<$num>>::view_links(me) };
                // SAFETY: `links` is the `inner` field of a `ListLinksSelfPtr<Self, $num>` in
                // the value (`HasSelfPtr`), so the struct around it is in the same allocation.
                let container = unsafe {
                    $crate::__kernel_core_list_container_of!(
                        links, $crate::list::ListLinksSelfPtr<Self, $num>, inner
                    )
                };
                // SAFETY: `container` points to the value's valid `ListLinksSelfPtr`.
                let self_ptr = unsafe {
                    $crate::list::ListLinksSelfPtr::raw_get_self_ptr(container)
                };
                let slot = $crate::types::Opaque::cast_into(self_ptr);
                // SAFETY: Only `prepare_to_insert`, `view_value` and `post_remove` touch the
                // self pointer, and their safety requirements keep the other two from running
                // while this one does: no data race.
                unsafe { ::core::ptr::write(slot, me) };
                links
            }

            // GUARANTEES: The field's address never changes, so this is what
            // `prepare_to_insert` returned (it calls this); out of a list, the links hold two
            // null pointers (`ListLinks`' invariant).
            unsafe fn view_links(me: *const Self) -> *mut $crate::list::ListLinks<$num> {
                // SAFETY: The caller promises that `me` points to a valid `Self`.
                unsafe {
                    <Self as $crate::list::HasListLinks<$num>>::raw_get_list_links(me.cast_mut())
                }
            }

            // Also `post_remove`'s implementation: a caller may meet the requirements of
            // either.
            //
            // GUARANTEES (both): The pointer `prepare_to_insert` wrote, the one it was given;
            // only `prepare_to_insert` writes it.
            // GUARANTEES (`view_value`'s requirements): the caller of `prepare_to_insert`
            // keeps the `ListArc`, so the value stays alive, until `post_remove`.
            unsafe fn view_value(links: *mut $crate::list::ListLinks<$num>) -> *const Self {
                // SAFETY: `links` came from `prepare_to_insert`, so it is the `inner` field of a
                // `ListLinksSelfPtr<Self, $num>` in a live value: the struct around it is in
                // the same allocation.
                let container = unsafe {
                    $crate::__kernel_core_list_container_of!(
                        links, $crate::list::ListLinksSelfPtr<Self, $num>, inner
                    )
                };
                // SAFETY: `container` points to the value's valid `ListLinksSelfPtr`.
                let self_ptr = unsafe {
                    $crate::list::ListLinksSelfPtr::raw_get_self_ptr(container)
                };
                let slot = $crate::types::Opaque::cast_into(self_ptr);
                // SAFETY: `prepare_to_insert` wrote the pointer, and cannot run while this does
                // (see there): no data race.
                unsafe { ::core::ptr::read(slot) }
            }

            // GUARANTEES: `view_value`'s first guarantee is this one.
            unsafe fn post_remove(me: *mut $crate::list::ListLinks<$num>) -> *const Self {
                // SAFETY: `view_value` may be called with `post_remove`'s requirements instead
                // of its own (see there).
                unsafe { <Self as $crate::list::ListItem<$num>>::view_value(me) }
            }
        }
    )*};
}

pub use crate::__kernel_core_impl_list_item as impl_list_item;
