import Glibc
import CDBus

/// Reads libdbus iterators into `DBusValue`s, within a budget.
///
/// libdbus has already validated incoming messages, so malformed input
/// cannot reach here; what a hostile peer can still send is a lot of it.
/// Every value read costs `Budget.perValue` plus the bytes of its text, and
/// reading stops with `LimitsExceeded` once a message's budget is spent: a
/// 32 MB byte array costs a bounded amount of work and memory to refuse.
///
/// File descriptors are never taken out of a message: libdbus hands out a
/// duplicate that the reader would have to close, and nothing in iCare takes
/// one. A message carrying them is refused (see `Message.arguments`), and
/// libdbus closes its own copies when the message is freed.
enum MessageReader {
    /// What is left to spend on one message.
    struct Budget {
        /// The cost of one value before its text: roughly the memory a
        /// `DBusValue` takes.
        static let perValue = 16
        var remaining: Int

        mutating func spend(_ cost: Int) throws(DBusError) {
            remaining -= cost
            if remaining < 0 {
                throw DBusError.limitsExceeded("The message holds more data than this service accepts.")
            }
        }
    }

    static func readAll(_ iter: UnsafeMutablePointer<DBusMessageIter>, _ budget: inout Budget) throws(DBusError) -> [DBusValue] {
        var out: [DBusValue] = []
        while dbus_message_iter_get_arg_type(iter) != CDBUS_TYPE_INVALID {
            out.append(try read(iter, &budget))
            dbus_message_iter_next(iter)
        }
        return out
    }

    static func read(_ iter: UnsafeMutablePointer<DBusMessageIter>, _ budget: inout Budget) throws(DBusError) -> DBusValue {
        try budget.spend(Budget.perValue)
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
        case CDBUS_TYPE_UNIX_FD: throw DBusError.invalidArgs("This service takes no file descriptors.")
        case CDBUS_TYPE_STRING: return .string(try text(iter, &budget))
        case CDBUS_TYPE_OBJECT_PATH: return .objectPath(ObjectPath(rawValue: try text(iter, &budget)) ?? ObjectPath("/"))
        case CDBUS_TYPE_SIGNATURE: return .signature(Signature(rawValue: try text(iter, &budget)) ?? "")
        case CDBUS_TYPE_VARIANT:
            return try recurse(iter) { (sub) throws(DBusError) in .variant(try read(sub, &budget)) }
        case CDBUS_TYPE_STRUCT:
            return try recurse(iter) { (sub) throws(DBusError) in .structure(try readAll(sub, &budget)) }
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
                        let pair = try recurse(sub) { (entry) throws(DBusError) -> [DBusValue] in try readAll(entry, &budget) }
                        guard pair.count == 2 else { throw DBusError.invalidArgs("A dictionary entry did not have two members.") }
                        list.append((pair[0], pair[1]))
                        dbus_message_iter_next(sub)
                    }
                    return list
                }
                return .dictionary(key: Signature(rawValue: keySig) ?? "s", value: Signature(rawValue: valueSig) ?? "v", entries)
            }
            let items = try recurse(iter) { (sub) throws(DBusError) in try readAll(sub, &budget) }
            return .array(element: Signature(rawValue: elementSig) ?? "v", items)
        default:
            throw DBusError.invalidArgs("Unsupported D-Bus type code \(type).")
        }
    }

    private static func text(_ iter: UnsafeMutablePointer<DBusMessageIter>, _ budget: inout Budget) throws(DBusError) -> String {
        var p: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(iter, &p)
        guard let p else { return "" }
        try budget.spend(strlen(p))
        return String(cString: p)
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
