// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! [`ListArcField`]: a field of a reference-counted value that belongs to the value's
//! [`ListArc`](super::ListArc), and `define_list_arc_field_getter!`, its accessors.

use core::cell::UnsafeCell;

/// A field that only the holder of the value's [`ListArc<_, ID>`](super::ListArc) may read
/// and write: shared access to the `ListArc` gives `&T`, exclusive access `&mut T`, although
/// other `Arc`s of the value exist. (Before the value is shared, a [`UniqueArc`] gives
/// `&mut T` too, through [`ListArcField::get_mut`].)
///
/// Read and write it with the accessors of `define_list_arc_field_getter!`.
///
/// [`UniqueArc`]: crate::sync::UniqueArc
///
/// # Examples
///
/// ```
/// use kernel_core::list::{
///     define_list_arc_field_getter, impl_list_arc_safe, ListArc, ListArcField,
/// };
/// use kernel_core::prelude::*;
/// use kernel_core::sync::UniqueArc;
///
/// struct Reference {
///     handle: u32,
///     // How many times the list's holder took it: no lock, only the `ListArc`'s holder
///     // touches it.
///     count: ListArcField<u64>,
/// }
/// impl_list_arc_safe! {
///     impl ListArcSafe<0> for Reference { untracked; }
/// }
///
/// let mut unique = UniqueArc::new(Reference { handle: 4, count: ListArcField::new(0) }, GFP_KERNEL)?;
/// *unique.count.get_mut() = 10; // the only reference: no `ListArc` needed
///
/// let list_arc = ListArc::<Reference>::from(unique);
/// let shared = list_arc.clone_arc();
/// // SAFETY: `list_arc`, the `ListArc`, is borrowed (shared) while the reference lives.
/// assert_eq!(unsafe { *list_arc.count.assert_ref() }, 10);
/// assert_eq!(shared.handle, 4);
/// # Ok::<(), Error>(())
/// ```
pub struct ListArcField<T, const ID: u64 = 0> {
    value: UnsafeCell<T>,
}

// SAFETY: The field is reached through the `ListArc`, which is `Send` and `Sync` only when the
// value is shared across threads: then `T` must be both.
unsafe impl<T: Send + Sync, const ID: u64> Send for ListArcField<T, ID> {}

// SAFETY: As for `Send`.
unsafe impl<T: Send + Sync, const ID: u64> Sync for ListArcField<T, ID> {}

impl<T, const ID: u64> ListArcField<T, ID> {
    /// A field holding `value`.
    ///
    /// # Examples
    ///
    /// See [`ListArcField`].
    ///
    /// ```
    /// use kernel_core::list::ListArcField;
    ///
    /// let mut field = ListArcField::<u8, 1>::new(5);
    /// assert_eq!(*field.get_mut(), 5);
    /// ```
    #[inline]
    pub fn new(value: T) -> Self {
        Self {
            value: UnsafeCell::new(value),
        }
    }

    /// The value, when the field is borrowed exclusively (for example through a
    /// [`UniqueArc`](crate::sync::UniqueArc)).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::list::ListArcField;
    ///
    /// let mut field = ListArcField::<[u32; 2]>::new([1, 2]);
    /// field.get_mut()[0] += 1;
    /// assert_eq!(*field.get_mut(), [2, 2]);
    /// ```
    #[inline]
    pub fn get_mut(&mut self) -> &mut T {
        self.value.get_mut()
    }

    /// The value, for the holder of a shared borrow of the value's [`ListArc<_, ID>`].
    ///
    /// # Safety
    ///
    /// The caller has shared access to the [`ListArc<_, ID>`] of the value that holds this
    /// field, for the lifetime of the returned reference.
    ///
    /// [`ListArc<_, ID>`]: super::ListArc
    ///
    /// # Examples
    ///
    /// See [`ListArcField`].
    ///
    /// ```
    /// use kernel_core::list::{impl_list_arc_safe, ListArc, ListArcField};
    /// use kernel_core::prelude::*;
    ///
    /// struct Entry(ListArcField<u32>);
    /// impl_list_arc_safe! {
    ///     impl ListArcSafe<0> for Entry { untracked; }
    /// }
    ///
    /// let entry = ListArc::<Entry>::new(Entry(ListArcField::new(3)), GFP_KERNEL)?;
    /// // SAFETY: `entry` is borrowed while the reference lives.
    /// let value = unsafe { entry.0.assert_ref() };
    /// assert_eq!(*value, 3);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub unsafe fn assert_ref(&self) -> &T {
        // SAFETY: The caller shares the `ListArc`, so no one writes the field meanwhile.
        unsafe { &*self.value.get() }
    }

    /// The value, for the holder of an exclusive borrow of the value's [`ListArc<_, ID>`].
    ///
    /// # Safety
    ///
    /// The caller has exclusive access to the [`ListArc<_, ID>`] of the value that holds
    /// this field, for the lifetime of the returned reference.
    ///
    /// [`ListArc<_, ID>`]: super::ListArc
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::list::{impl_list_arc_safe, ListArc, ListArcField};
    /// use kernel_core::prelude::*;
    ///
    /// struct Entry(ListArcField<u32>);
    /// impl_list_arc_safe! {
    ///     impl ListArcSafe<0> for Entry { untracked; }
    /// }
    ///
    /// let mut entry = ListArc::<Entry>::new(Entry(ListArcField::new(3)), GFP_KERNEL)?;
    /// {
    ///     let exclusive = &mut entry;
    ///     // SAFETY: `entry` is borrowed exclusively while the reference lives.
    ///     *unsafe { exclusive.0.assert_mut() } += 1;
    /// }
    /// // SAFETY: `entry` is borrowed while the reference lives.
    /// assert_eq!(unsafe { *entry.0.assert_ref() }, 4);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn assert_mut(&self) -> &mut T {
        // SAFETY: The caller holds the `ListArc` exclusively, so no one else reaches the field.
        unsafe { &mut *self.value.get() }
    }
}

/// Defines accessors of [`ListArcField`]s, in an `impl` block of the value's type: each reads
/// or writes one field, given a shared or exclusive borrow of the value's `ListArc`.
///
/// ```text
/// define_list_arc_field_getter! {
///     pub fn name(&self) -> &Type { field }
///     pub fn name_mut(&mut self) -> &mut Type { field }
///     fn other(&self<ID>) -> &Type { field }       // a `ListArc<Self, ID>`
/// }
/// ```
///
/// **On the host** the accessors take the `ListArc` as their first argument, `this`, not as
/// `self`: a method with `self: &ListArc<Self>` needs the `arbitrary_self_types` feature, which
/// the kernel enables and stable Rust does not have. So they are called as associated
/// functions, `Type::name(&list_arc)`, which builds with the kernel's macro too (where
/// `list_arc.name()` also does).
///
/// # Examples
///
/// ```
/// use kernel_core::list::{
///     define_list_arc_field_getter, impl_list_arc_safe, ListArc, ListArcField,
/// };
/// use kernel_core::prelude::*;
///
/// struct Node {
///     weak_refs: ListArcField<u32, 1>,
///     strong_refs: ListArcField<u32, 1>,
/// }
///
/// impl Node {
///     define_list_arc_field_getter! {
///         fn weak(&self<1>) -> &u32 { weak_refs }
///         fn strong_mut(&mut self<1>) -> &mut u32 { strong_refs }
///         fn strong(&self<1>) -> &u32 { strong_refs }
///     }
/// }
///
/// impl_list_arc_safe! {
///     impl ListArcSafe<1> for Node { untracked; }
/// }
///
/// let mut node = ListArc::<Node, 1>::new(
///     Node { weak_refs: ListArcField::new(0), strong_refs: ListArcField::new(1) },
///     GFP_KERNEL,
/// )?;
/// *Node::strong_mut(&mut node) += 1;
/// assert_eq!((*Node::weak(&node), *Node::strong(&node)), (0, 2));
/// # Ok::<(), Error>(())
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_define_list_arc_field_getter {
    ($pub:vis fn $name:ident(&self $(<$id:tt>)?) -> &$typ:ty { $field:ident }
     $($rest:tt)*
    ) => {
        $pub fn $name<'a>(this: &'a $crate::list::ListArc<Self $(, $id)?>) -> &'a $typ {
            let field = &(&**this).$field;
            // SAFETY: `this`, a shared borrow of the `ListArc`, lives as long as the result.
            unsafe { $crate::list::ListArcField::<$typ $(, $id)?>::assert_ref(field) }
        }

        $crate::list::define_list_arc_field_getter!($($rest)*);
    };

    ($pub:vis fn $name:ident(&mut self $(<$id:tt>)?) -> &mut $typ:ty { $field:ident }
     $($rest:tt)*
    ) => {
        $pub fn $name<'a>(this: &'a mut $crate::list::ListArc<Self $(, $id)?>) -> &'a mut $typ {
            let field = &(&**this).$field;
            // SAFETY: `this`, an exclusive borrow of the `ListArc`, lives as long as the
            // result.
            unsafe { $crate::list::ListArcField::<$typ $(, $id)?>::assert_mut(field) }
        }

        $crate::list::define_list_arc_field_getter!($($rest)*);
    };

    () => {};
}

pub use crate::__kernel_core_define_list_arc_field_getter as define_list_arc_field_getter;
