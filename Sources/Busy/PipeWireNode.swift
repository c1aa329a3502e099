internal import CPipeWire

/// One bound PipeWire node: its state and properties as its info events tell them.
final class PipeWireNode {
    let id: UInt32
    private var proxy: OpaquePointer?
    private let hook = UnsafeMutablePointer<spa_hook>.allocate(capacity: 1)
    private(set) var props: [String: String]
    private(set) var running = false
    /// When it last started running, in the source's count.
    var since: UInt64 = 0
    /// Runs after an info event, with whether it was running before.
    var onChange: ((Bool) -> Void)?

    init(id: UInt32, proxy: OpaquePointer, props: [String: String]) {
        self.id = id
        self.proxy = proxy
        self.props = props
        hook.initialize(to: spa_hook())
    }

    deinit {
        destroy()
        hook.deallocate()
    }

    var kind: String? { PipeWireNodeKind.kind(props) }
    var who: String { PipeWireNodeKind.who(props) }
    var mediaClass: String { props["media.class"] ?? "" }

    func listen(_ events: UnsafeMutablePointer<pw_node_events>) {
        guard let proxy else { return }
        icare_pw_node_add_listener(proxy, hook, events, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Stops listening and releases the proxy. Idempotent.
    func destroy() {
        guard let proxy else { return }
        self.proxy = nil
        icare_spa_hook_remove(hook)
        pw_proxy_destroy(proxy)
    }

    func update(_ info: pw_node_info) {
        let was = running
        if info.change_mask & UInt64(PW_NODE_CHANGE_MASK_PROPS) != 0, let dict = info.props {
            props = Self.dictionary(UnsafePointer(dict))
        }
        if info.change_mask & UInt64(PW_NODE_CHANGE_MASK_STATE) != 0 {
            running = info.state == PW_NODE_STATE_RUNNING
        }
        onChange?(was)
    }

    /// A spa_dict as a Swift dictionary (entries without a value are left out).
    static func dictionary(_ dict: UnsafePointer<spa_dict>?) -> [String: String] {
        guard let dict, let items = dict.pointee.items else { return [:] }
        var out: [String: String] = [:]
        for i in 0..<Int(dict.pointee.n_items) {
            guard let key = items[i].key, let value = items[i].value else { continue }
            out[String(cString: key)] = String(cString: value)
        }
        return out
    }
}
