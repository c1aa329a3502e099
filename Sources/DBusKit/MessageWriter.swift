import Glibc
import CDBus

/// Writes `DBusValue`s through libdbus iterators. Values are well-typed by
/// construction (validated names, Swift strings are UTF-8), so a failure
/// here is out-of-memory only.
enum MessageWriter {
    static func write(_ value: DBusValue, into iter: UnsafeMutablePointer<DBusMessageIter>) {
        switch value {
        case .byte(var v): basic(iter, CDBUS_TYPE_BYTE, &v)
        case .bool(let b): var v: dbus_bool_t = b ? 1 : 0; basic(iter, CDBUS_TYPE_BOOLEAN, &v)
        case .int16(var v): basic(iter, CDBUS_TYPE_INT16, &v)
        case .uint16(var v): basic(iter, CDBUS_TYPE_UINT16, &v)
        case .int32(var v): basic(iter, CDBUS_TYPE_INT32, &v)
        case .uint32(var v): basic(iter, CDBUS_TYPE_UINT32, &v)
        case .int64(var v): basic(iter, CDBUS_TYPE_INT64, &v)
        case .uint64(var v): basic(iter, CDBUS_TYPE_UINT64, &v)
        case .double(var v): basic(iter, CDBUS_TYPE_DOUBLE, &v)
        case .unixFD(var v): basic(iter, CDBUS_TYPE_UNIX_FD, &v)
        case .string(let s): text(iter, CDBUS_TYPE_STRING, s)
        case .objectPath(let p): text(iter, CDBUS_TYPE_OBJECT_PATH, p.rawValue)
        case .signature(let g): text(iter, CDBUS_TYPE_SIGNATURE, g.rawValue)
        case .array(let element, let items):
            container(iter, CDBUS_TYPE_ARRAY, element.rawValue) { sub in
                for item in items { write(item, into: sub) }
            }
        case .bytes(let data):
            container(iter, CDBUS_TYPE_ARRAY, "y") { sub in
                guard !data.isEmpty else { return }
                data.withUnsafeBufferPointer { buffer in
                    var start = buffer.baseAddress
                    let ok = dbus_message_iter_append_fixed_array(sub, CDBUS_TYPE_BYTE, &start, Int32(buffer.count))
                    precondition(ok != 0, "out of memory writing a D-Bus message")
                }
            }
        case .dictionary(let k, let v, let entries):
            container(iter, CDBUS_TYPE_ARRAY, "{" + k.rawValue + v.rawValue + "}") { sub in
                for (key, val) in entries {
                    container(sub, CDBUS_TYPE_DICT_ENTRY, nil) { entry in
                        write(key, into: entry)
                        write(val, into: entry)
                    }
                }
            }
        case .structure(let members):
            container(iter, CDBUS_TYPE_STRUCT, nil) { sub in
                for m in members { write(m, into: sub) }
            }
        case .variant(let inner):
            container(iter, CDBUS_TYPE_VARIANT, inner.signatureText) { sub in write(inner, into: sub) }
        }
    }

    private static func basic<T: BitwiseCopyable>(_ iter: UnsafeMutablePointer<DBusMessageIter>, _ type: Int32, _ v: inout T) {
        let ok = withUnsafeMutablePointer(to: &v) { dbus_message_iter_append_basic(iter, type, $0) }
        precondition(ok != 0, "out of memory writing a D-Bus message")
    }

    private static func text(_ iter: UnsafeMutablePointer<DBusMessageIter>, _ type: Int32, _ s: String) {
        s.withCString { cstr in
            // An embedded NUL cannot be sent: drop them rather than truncate silently.
            if strlen(cstr) != s.utf8.count {
                text(iter, type, String(decoding: s.utf8.filter { $0 != 0 }, as: UTF8.self))
                return
            }
            var p: UnsafePointer<CChar>? = cstr
            let ok = dbus_message_iter_append_basic(iter, type, &p)
            precondition(ok != 0, "out of memory writing a D-Bus message")
        }
    }

    private static func container(_ iter: UnsafeMutablePointer<DBusMessageIter>, _ type: Int32, _ contained: String?,
                                  _ body: (UnsafeMutablePointer<DBusMessageIter>) -> Void) {
        // The child iterator only has to live until it is closed, inside this scope.
        var child = DBusMessageIter()
        withUnsafeMutablePointer(to: &child) { sub in
            let ok: dbus_bool_t
            if let contained {
                ok = contained.withCString { dbus_message_iter_open_container(iter, type, $0, sub) }
            } else {
                ok = dbus_message_iter_open_container(iter, type, nil, sub)
            }
            precondition(ok != 0, "out of memory writing a D-Bus message")
            body(sub)
            precondition(dbus_message_iter_close_container(iter, sub) != 0, "out of memory writing a D-Bus message")
        }
    }
}
