/// Introspection XML generated from the description, with each member's
/// documentation as an XML comment before it.
public enum Introspection {
    static let header = """
    <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

    """

    /// The XML for `object` (or a bare parent node when nil) with child nodes.
    public static func xml(for object: ExportedObject?, children: [String] = []) -> String {
        var out = header + "<node>\n"
        if let object {
            out += standardInterfaces
            for iface in object.interfaces { out += xml(iface) }
        }
        for child in children { out += "  <node name=\"\(escape(child))\"/>\n" }
        out += "</node>\n"
        return out
    }

    static func xml(_ iface: Interface) -> String {
        var out = comment(iface.doc, indent: "  ")
        out += "  <interface name=\"\(iface.name)\">\n"
        for m in iface.methods {
            out += comment(m.doc, indent: "    ")
            out += "    <method name=\"\(m.name)\">\n"
            for a in m.inputs { out += "      <arg name=\"\(escape(a.name))\" type=\"\(escape(a.signature.rawValue))\" direction=\"in\"/>\n" }
            for a in m.outputs { out += "      <arg name=\"\(escape(a.name))\" type=\"\(escape(a.signature.rawValue))\" direction=\"out\"/>\n" }
            out += "    </method>\n"
        }
        for s in iface.signals {
            out += comment(s.doc, indent: "    ")
            out += "    <signal name=\"\(s.name)\">\n"
            for a in s.arguments { out += "      <arg name=\"\(escape(a.name))\" type=\"\(escape(a.signature.rawValue))\"/>\n" }
            out += "    </signal>\n"
        }
        for p in iface.properties {
            out += comment(p.doc, indent: "    ")
            let access = p.isWritable ? "readwrite" : "read"
            if p.emitsChange == .true {
                out += "    <property name=\"\(p.name)\" type=\"\(escape(p.signature.rawValue))\" access=\"\(access)\"/>\n"
            } else {
                out += "    <property name=\"\(p.name)\" type=\"\(escape(p.signature.rawValue))\" access=\"\(access)\">\n"
                out += "      <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"\(p.emitsChange.rawValue)\"/>\n"
                out += "    </property>\n"
            }
        }
        for (k, v) in iface.annotations { out += "    <annotation name=\"\(escape(k))\" value=\"\(escape(v))\"/>\n" }
        out += "  </interface>\n"
        return out
    }

    static func comment(_ doc: String, indent: String) -> String {
        guard !doc.isEmpty else { return "" }
        // "--" may not appear inside an XML comment.
        var text = doc
        while true {
            let spaced = text.replacingAll("--", with: "- -")
            if spaced == text { break }
            text = spaced
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.count == 1 { return "\(indent)<!-- \(text) -->\n" }
        return "\(indent)<!--\n" + lines.map { $0.isEmpty ? "\n" : "\(indent)  \($0)\n" }.joined() + "\(indent)-->\n"
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(ch)
            }
        }
        return out
    }

    static let standardInterfaces = """
      <interface name="org.freedesktop.DBus.Peer">
        <method name="Ping"/>
        <method name="GetMachineId">
          <arg name="machine_uuid" type="s" direction="out"/>
        </method>
      </interface>
      <interface name="org.freedesktop.DBus.Introspectable">
        <method name="Introspect">
          <arg name="xml_data" type="s" direction="out"/>
        </method>
      </interface>
      <interface name="org.freedesktop.DBus.Properties">
        <method name="Get">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="property_name" type="s" direction="in"/>
          <arg name="value" type="v" direction="out"/>
        </method>
        <method name="GetAll">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="props" type="a{sv}" direction="out"/>
        </method>
        <method name="Set">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="property_name" type="s" direction="in"/>
          <arg name="value" type="v" direction="in"/>
        </method>
        <signal name="PropertiesChanged">
          <arg name="interface_name" type="s"/>
          <arg name="changed_properties" type="a{sv}"/>
          <arg name="invalidated_properties" type="as"/>
        </signal>
      </interface>

    """
}

extension String {
    /// Replaces every occurrence of `target`, left to right. Neither Foundation
    /// nor `_StringProcessing` here: the service links neither (docs/architecture.md,
    /// "How icared is linked and what it keeps in memory").
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var kept = startIndex
        var at = startIndex
        while at < endIndex {
            if self[at...].hasPrefix(target) {
                out += self[kept..<at]
                out += replacement
                at = index(at, offsetBy: target.count)
                kept = at
            } else {
                at = index(after: at)
            }
        }
        out += self[kept...]
        return out
    }
}
