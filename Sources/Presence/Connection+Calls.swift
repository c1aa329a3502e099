import DBusKit

extension Connection {
    /// Calls `interface.member` on `destination` at `path` and hands the reply's
    /// arguments (or the error) to `reply` on the loop. A path that is not a
    /// valid object path (it came off the wire) is an error, not a trap.
    func callMethod(_ destination: String, _ path: String, _ interface: String, _ member: String,
                    _ arguments: [DBusValue] = [], reply: @escaping (Result<[DBusValue], DBusError>) -> Void) {
        guard let objectPath = ObjectPath(rawValue: path) else {
            reply(.failure(.invalidArgs("\(path) is not an object path.")))
            return
        }
        let message = Message.methodCall(destination: BusName(destination), path: objectPath,
                                         interface: InterfaceName(interface), member: MemberName(member),
                                         arguments: arguments)
        call(message, timeoutMs: 10_000) { result in
            switch result {
            case .success(let m):
                do throws(DBusError) {
                    reply(.success(try m.arguments()))
                } catch {
                    reply(.failure(error))
                }
            case .failure(let error):
                reply(.failure(error))
            }
        }
    }

    /// `org.freedesktop.DBus.Properties.GetAll(interface)` as a dictionary.
    func getAllProperties(_ destination: String, _ path: String, _ interface: String,
                          reply: @escaping (Result<[String: DBusValue], DBusError>) -> Void) {
        callMethod(destination, path, "org.freedesktop.DBus.Properties", "GetAll", [.string(interface)]) { result in
            reply(result.flatMap { args in
                guard let dict = args.first?.stringDictionary else {
                    return .failure(.invalidArgs("GetAll on \(path) did not answer a{sv}."))
                }
                return .success(dict)
            })
        }
    }
}
