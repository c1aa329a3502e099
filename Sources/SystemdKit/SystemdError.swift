import Glibc

/// A failed libsystemd or libc call: the function's name and the errno it gave.
public struct SystemdError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The C function that failed, e.g. `sd_event_add_io`.
    public let function: String
    /// The positive errno value.
    public let errno: Int32

    public init(function: String, errno: Int32) {
        self.function = function
        self.errno = errno
    }

    public var description: String { "\(function): \(String(cString: strerror(errno)))" }
}

/// Turns an sd-* style return value (negative errno on failure) into a thrown error.
@discardableResult
@inline(__always)
func sdCheck(_ r: Int32, _ function: String) throws(SystemdError) -> Int32 {
    if r < 0 { throw SystemdError(function: function, errno: -r) }
    return r
}
