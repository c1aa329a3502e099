internal import CCanberra
import Glibc

/// libcanberra, opened for one sound and closed after it: `dlopen` of
/// `libcanberra.so.0` and a lookup of the few functions iCare calls. Linked
/// in instead, it and its decoders would be mapped (and partly resident) in
/// every idle icared; opened only to play, the library, its Pulse backend
/// and the Pulse client library are gone again once the sound has finished.
/// Used in the sound's own process only (see `SoundChild`).
struct Canberra {
    typealias Create = @convention(c) (UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    typealias WithString = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
    typealias WithList = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    typealias One = @convention(c) (OpaquePointer?) -> Int32
    typealias SetString = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    typealias PlayFull = @convention(c) (OpaquePointer?, UInt32, OpaquePointer?, ca_finish_callback_t?, UnsafeMutableRawPointer?) -> Int32
    typealias ErrorText = @convention(c) (Int32) -> UnsafePointer<CChar>?

    /// The library's soname (libcanberra0).
    static let soname = "libcanberra.so.0"

    let handle: UnsafeMutableRawPointer
    let contextCreate: Create
    let contextSetDriver: WithString
    let contextChangeProps: WithList
    let contextOpen: One
    let contextDestroy: One
    let contextPlay: PlayFull
    let listCreate: Create
    let listSet: SetString
    let listDestroy: One
    let errorText: ErrorText

    /// Opens the library; nil and why when it is not installed or lacks a function.
    static func open() -> (Canberra?, String) {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            return (nil, dlerror().map { String(cString: $0) } ?? "\(soname) cannot be loaded")
        }
        func symbol<T>(_ name: String, _ type: T.Type) -> T? {
            guard let pointer = dlsym(handle, name) else { return nil }
            return unsafeBitCast(pointer, to: type)
        }
        guard let create = symbol("ca_context_create", Create.self),
              let setDriver = symbol("ca_context_set_driver", WithString.self),
              let changeProps = symbol("ca_context_change_props_full", WithList.self),
              let open = symbol("ca_context_open", One.self),
              let destroy = symbol("ca_context_destroy", One.self),
              let play = symbol("ca_context_play_full", PlayFull.self),
              let listCreate = symbol("ca_proplist_create", Create.self),
              let listSet = symbol("ca_proplist_sets", SetString.self),
              let listDestroy = symbol("ca_proplist_destroy", One.self),
              let errorText = symbol("ca_strerror", ErrorText.self)
        else {
            dlclose(handle)
            return (nil, "\(soname) lacks a function iCare needs")
        }
        return (Canberra(handle: handle, contextCreate: create, contextSetDriver: setDriver, contextChangeProps: changeProps,
                         contextOpen: open, contextDestroy: destroy, contextPlay: play, listCreate: listCreate,
                         listSet: listSet, listDestroy: listDestroy, errorText: errorText), "")
    }

    /// Unloads the library (and what it loaded, unless something else holds it).
    func close() { dlclose(handle) }

    /// A property list with these entries; nil when canberra could not make one.
    func list(_ entries: [(String, String)]) -> OpaquePointer? {
        var list: OpaquePointer?
        guard listCreate(&list) == 0, let list else { return nil }
        for (key, value) in entries { _ = listSet(list, key, value) }
        return list
    }

    /// canberra's words for an error code.
    func describe(_ code: Int32) -> String {
        errorText(code).map { String(cString: $0) } ?? "error \(code)"
    }

    // The property names and error codes iCare uses (canberra.h).
    static let role = CA_PROP_MEDIA_ROLE
    static let eventID = CA_PROP_EVENT_ID
    static let themeName = CA_PROP_CANBERRA_XDG_THEME_NAME
    static let cacheControl = CA_PROP_CANBERRA_CACHE_CONTROL
    static let applicationName = CA_PROP_APPLICATION_NAME
    static let applicationID = CA_PROP_APPLICATION_ID
    static let applicationIcon = CA_PROP_APPLICATION_ICON_NAME
    static let notFound = Int32(CA_ERROR_NOTFOUND)
    static let noDriver = Int32(CA_ERROR_NODRIVER)
}
