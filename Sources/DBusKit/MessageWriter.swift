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

/// Reads libdbus iterators into `DBusValue`s. libdbus has already validated
/// incoming messages, so malformed input cannot reach here; unknown types
/// are reported as an error rather than trapping.
enum MessageReader {
    static func readAll(_ iter: UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) -> [DBusValue] {
        var out: [DBusValue] = []
        while dbus_message_iter_get_arg_type(iter) != CDBUS_TYPE_INVALID {
            out.append(try read(iter))
            dbus_message_iter_next(iter)
        }
        return out
    }

    static func read(_ iter: UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(iter)
        switch type {
        case CDBUS_TYPE_BYTE: var v: UInt8 = 0; dbus_message_iter_get_basic(iter, &v); return .byte(v)
        case CDBUS_TYPE_BOOLEAN: var v: dbus_bool_t = 0; dbus_message_iter_get_basic(iter, &v); return .bool(v != 0)
        case CDBUS_TYPE_INT16: var v: Int16 = 0; dbus_message_iter_get_basic(iter, &v); return .int16(v)
        case CDBUS_TYPE_UINT16: var v: UInt16 = 0; dbus_message_iter_get_basic(iter, &v); return .uint16(v)
        case CDBUS_TYPE_INT32: var v: Int32 = 0; dbus_message_iter_get_basic(iter, &v); return .int32(v)
        case CDBUS_TYPE_UINT32: var v: UInt32 = 0; dbus_message_iter_get_basic(iter, &v); return .uint32(v)
        case CDBUS_TYPE_INT64: var v: Int64 = 0; dbus_message_iter_get_basic(iter, &v); return .int64(v)
        case CDBUS_TYPE_UINT64: var v: UInt64 = 0; dbus_message_iter_get_basic(iter, &v); return .uint64(v)
        case CDBUS_TYPE_DOUBLE: var v: Double = 0; dbus_message_iter_get_basic(iter, &v); return .double(v)
        case CDBUS_TYPE_UNIX_FD: var v: Int32 = -1; dbus_message_iter_get_basic(iter, &v); return .unixFD(v)
        case CDBUS_TYPE_STRING: return .string(text(iter))
        case CDBUS_TYPE_OBJECT_PATH: return .objectPath(ObjectPath(rawValue: text(iter)) ?? ObjectPath("/"))
        case CDBUS_TYPE_SIGNATURE: return .signature(Signature(rawValue: text(iter)) ?? "")
        case CDBUS_TYPE_VARIANT:
            return try recurse(iter) { (sub) throws(DBusError) in .variant(try read(sub)) }
        case CDBUS_TYPE_STRUCT:
            return try recurse(iter) { (sub) throws(DBusError) in .structure(try readAll(sub)) }
        case CDBUS_TYPE_ARRAY:
            let elementSig = containedSignature(iter)
            if dbus_message_iter_get_element_type(iter) == CDBUS_TYPE_DICT_ENTRY {
                // elementSig is "{kv}"; split into the key (one basic type) and the value.
                let inner = String(elementSig.dropFirst().dropLast())
                let keySig = String(inner.prefix(1))
                let valueSig = String(inner.dropFirst())
                let entries = try recurse(iter) { (sub) throws(DBusError) -> [(DBusValue, DBusValue)] in
                    var list: [(DBusValue, DBusValue)] = []
                    while dbus_message_iter_get_arg_type(sub) != CDBUS_TYPE_INVALID {
                        let pair = try recurse(sub) { (entry) throws(DBusError) -> [DBusValue] in try readAll(entry) }
                        guard pair.count == 2 else { throw DBusError.invalidArgs("A dictionary entry did not have two members.") }
                        list.append((pair[0], pair[1]))
                        dbus_message_iter_next(sub)
                    }
                    return list
                }
                return .dictionary(key: Signature(rawValue: keySig) ?? "s", value: Signature(rawValue: valueSig) ?? "v", entries)
            }
            let items = try recurse(iter) { (sub) throws(DBusError) in try readAll(sub) }
            return .array(element: Signature(rawValue: elementSig) ?? "v", items)
        default:
            throw DBusError.invalidArgs("Unsupported D-Bus type code \(type).")
        }
    }

    private static func text(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> String {
        var p: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(iter, &p)
        return p.map { String(cString: $0) } ?? ""
    }

    private static func containedSignature(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> String {
        guard let sig = dbus_message_iter_get_signature(iter) else { return "" }
        defer { dbus_free(sig) }
        // The iterator's signature is of the whole array: "a<element>".
        return String(String(cString: sig).dropFirst())
    }

    private static func recurse<R>(_ iter: UnsafeMutablePointer<DBusMessageIter>,
                                   _ body: (UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) -> R) throws(DBusError) -> R {
        let sub = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
        defer { sub.deallocate() }
        dbus_message_iter_recurse(iter, sub)
        return try body(sub)
    }
}
