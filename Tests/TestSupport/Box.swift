import Foundation

/// A value shared between a test thread and a loop or reader thread.
public final class Box<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var _value: T
    public init(_ v: T) { _value = v }
    public var value: T {
        get { lock.lock(); defer { lock.unlock() }; return _value }
        set { lock.lock(); _value = newValue; lock.unlock() }
    }
    /// Changes the value in place under the lock.
    public func mutate(_ f: (inout T) -> Void) { lock.lock(); f(&_value); lock.unlock() }
}
