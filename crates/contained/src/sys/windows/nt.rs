//! Windows: the only `unsafe` code of the reader. Each function here wraps one system call of
//! `ntdll` or `kernel32` (through `windows-sys`) in a safe signature; each `unsafe` block is one
//! call, with the invariant that makes it sound written above it. Nothing here decides anything:
//! what is opened, and what an answer means, is [`super`]'s.
//!
//! **Invariant:** [`open_relative`] takes a parent handle and one name (or none, to reopen the
//! parent itself); the parent handle is always the `RootDirectory` of the open, so the name is
//! resolved by the kernel relative to a handle opened contained.
#![expect(
    unsafe_code,
    reason = "NtCreateFile, GetFileInformationByHandleEx and RtlNtStatusToDosError have no safe \
              binding; this module is the one place that calls them (contract 01 §4.2)"
)]

use std::ffi::c_void;
use std::os::windows::io::{AsRawHandle, BorrowedHandle, FromRawHandle, OwnedHandle};

use windows_sys::Wdk::Foundation::OBJECT_ATTRIBUTES;
use windows_sys::Wdk::Storage::FileSystem::{FILE_OPEN, NtCreateFile};
use windows_sys::Win32::Foundation::{
    HANDLE, NTSTATUS, OBJ_CASE_INSENSITIVE, RtlNtStatusToDosError, UNICODE_STRING,
};
use windows_sys::Win32::Storage::FileSystem::{
    BY_HANDLE_FILE_INFORMATION, FILE_ATTRIBUTE_TAG_INFO, FILE_BASIC_INFO, FILE_ID_INFO,
    FILE_INFO_BY_HANDLE_CLASS, FILE_SHARE_DELETE, FILE_SHARE_READ, FILE_SHARE_WRITE,
    FILE_STANDARD_INFO, FileAttributeTagInfo, FileBasicInfo, FileIdInfo, FileStandardInfo,
    GetFileInformationByHandle, GetFileInformationByHandleEx,
};
use windows_sys::Win32::System::IO::IO_STATUS_BLOCK;

/// `NtCreateFile(&handle, access, {RootDirectory: parent, ObjectName: name,
/// OBJ_CASE_INSENSITIVE}, FILE_OPEN, share read | write | delete, options)`: opens an existing
/// object by one name relative to `parent`, never creating anything. An empty `name` reopens
/// `parent` itself (a handle of its own, with its own enumeration position). The caller passes
/// `FILE_OPEN_REPARSE_POINT` in `options`, so a final reparse point is opened as itself.
///
/// Returns the failing `NTSTATUS` on failure.
pub(super) fn open_relative(
    parent: BorrowedHandle<'_>,
    name: &[u16],
    access: u32,
    options: u32,
) -> Result<OwnedHandle, NTSTATUS> {
    // A name is at most 255 UTF-16 units (checked before), far below the 32,767 a
    // `UNICODE_STRING` can count in bytes; anything longer is refused, not truncated.
    const STATUS_OBJECT_NAME_INVALID: NTSTATUS = 0xC000_0033_u32 as NTSTATUS;
    let Ok(bytes) = u16::try_from(name.len() * 2) else {
        return Err(STATUS_OBJECT_NAME_INVALID);
    };
    let object_name = UNICODE_STRING {
        Length: bytes,
        MaximumLength: bytes,
        // NtCreateFile only reads the name; the cast to `*mut` is what the struct demands.
        Buffer: name.as_ptr().cast_mut(),
    };
    let attributes = OBJECT_ATTRIBUTES {
        Length: size_of::<OBJECT_ATTRIBUTES>() as u32,
        RootDirectory: parent.as_raw_handle() as HANDLE,
        ObjectName: &object_name,
        Attributes: OBJ_CASE_INSENSITIVE,
        SecurityDescriptor: std::ptr::null(),
        SecurityQualityOfService: std::ptr::null(),
    };
    let mut io_status = IO_STATUS_BLOCK::default();
    let mut handle: HANDLE = std::ptr::null_mut();
    // SAFETY: every pointer is valid for the call: `handle` and `io_status` are live locals
    // the kernel writes; `attributes` and the `object_name` it points to (whose buffer is
    // `name`, `bytes` long) are live locals read only; allocation size and EA buffer are null
    // with length 0, which FILE_OPEN allows. `RootDirectory` is a handle borrowed for the whole
    // call. FILE_OPEN never creates or overwrites anything.
    let status = unsafe {
        NtCreateFile(
            &mut handle,
            access,
            &attributes,
            &mut io_status,
            std::ptr::null(),
            0,
            FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
            FILE_OPEN,
            options,
            std::ptr::null(),
            0,
        )
    };
    if status < 0 || handle.is_null() {
        return Err(status);
    }
    // SAFETY: NtCreateFile succeeded, so `handle` is a new open handle that nothing else owns;
    // the `OwnedHandle` closes it exactly once.
    Ok(unsafe { OwnedHandle::from_raw_handle(handle as _) })
}

/// The Win32 error code of an `NTSTATUS` (for an `std::io::ErrorKind`).
pub(super) fn dos_error(status: NTSTATUS) -> u32 {
    // SAFETY: RtlNtStatusToDosError takes a value and touches no memory of ours (it sets the
    // thread's last-error slot, which nothing here reads afterwards).
    unsafe { RtlNtStatusToDosError(status) }
}

/// A `GetFileInformationByHandleEx` class and the plain struct it fills. Implemented here for
/// exactly the pairs the documentation names, so [`query`] cannot be called with a struct
/// smaller than what the kernel writes.
pub(super) trait InfoClass: Copy + Default {
    /// The class that fills `Self`.
    const CLASS: FILE_INFO_BY_HANDLE_CLASS;
}

impl InfoClass for FILE_BASIC_INFO {
    const CLASS: FILE_INFO_BY_HANDLE_CLASS = FileBasicInfo;
}

impl InfoClass for FILE_STANDARD_INFO {
    const CLASS: FILE_INFO_BY_HANDLE_CLASS = FileStandardInfo;
}

impl InfoClass for FILE_ATTRIBUTE_TAG_INFO {
    const CLASS: FILE_INFO_BY_HANDLE_CLASS = FileAttributeTagInfo;
}

impl InfoClass for FILE_ID_INFO {
    const CLASS: FILE_INFO_BY_HANDLE_CLASS = FileIdInfo;
}

/// `GetFileInformationByHandleEx(handle, T::CLASS, &mut T)`.
pub(super) fn query<T: InfoClass>(handle: BorrowedHandle<'_>) -> std::io::Result<T> {
    let mut info = T::default();
    // SAFETY: `info` is a live, properly aligned `T`, and `T::CLASS` is the class whose output
    // is exactly a `T` (the `InfoClass` impls above), so the kernel writes at most
    // `size_of::<T>()` bytes into it. The handle is borrowed for the call.
    let ok = unsafe {
        GetFileInformationByHandleEx(
            handle.as_raw_handle() as HANDLE,
            T::CLASS,
            (&raw mut info).cast::<c_void>(),
            size_of::<T>() as u32,
        )
    };
    if ok == 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(info)
}

/// `GetFileInformationByHandle`: the volume serial number and 64-bit file index, for
/// filesystems without `FileIdInfo`.
pub(super) fn by_handle(handle: BorrowedHandle<'_>) -> std::io::Result<BY_HANDLE_FILE_INFORMATION> {
    let mut info = BY_HANDLE_FILE_INFORMATION {
        dwFileAttributes: 0,
        ftCreationTime: Default::default(),
        ftLastAccessTime: Default::default(),
        ftLastWriteTime: Default::default(),
        dwVolumeSerialNumber: 0,
        nFileSizeHigh: 0,
        nFileSizeLow: 0,
        nNumberOfLinks: 0,
        nFileIndexHigh: 0,
        nFileIndexLow: 0,
    };
    // SAFETY: `info` is a live `BY_HANDLE_FILE_INFORMATION`, the one struct this call fills;
    // the handle is borrowed for the call.
    let ok = unsafe { GetFileInformationByHandle(handle.as_raw_handle() as HANDLE, &mut info) };
    if ok == 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(info)
}

/// One batch of a directory enumeration: `GetFileInformationByHandleEx(handle, class, buffer)`
/// with a directory class (`FileIdBothDirectory[Restart]Info`, `FileFullDirectory[Restart]Info`).
/// `Ok(false)` at the end of the directory (`ERROR_NO_MORE_FILES`). The entries are read from
/// `buffer` afterwards by [`super`], with bounds-checked offsets.
pub(super) fn directory_batch(
    handle: BorrowedHandle<'_>,
    class: FILE_INFO_BY_HANDLE_CLASS,
    buffer: &mut [u64],
) -> std::io::Result<bool> {
    const ERROR_NO_MORE_FILES: i32 = 18;
    let bytes = u32::try_from(size_of_val(buffer))
        .map_err(|_| std::io::Error::from(std::io::ErrorKind::InvalidInput))?;
    // SAFETY: `buffer` is live, writable and 8-byte aligned (it is `[u64]`), as the directory
    // classes require, and `bytes` is exactly its length in bytes, so the kernel writes inside
    // it. The handle is borrowed for the call.
    let ok = unsafe {
        GetFileInformationByHandleEx(
            handle.as_raw_handle() as HANDLE,
            class,
            buffer.as_mut_ptr().cast::<c_void>(),
            bytes,
        )
    };
    if ok != 0 {
        return Ok(true);
    }
    let error = std::io::Error::last_os_error();
    if error.raw_os_error() == Some(ERROR_NO_MORE_FILES) {
        return Ok(false);
    }
    Err(error)
}
