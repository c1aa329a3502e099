import Foundation
import Testing
import TestSupport

/// The layers docs/targets.md draws hold in Package.swift, as `swift package dump-package` reads it: every
/// target is named on the page once, each depends only on its own section or earlier ones, and nothing
/// that only reads the desktop reaches the reminder engine, even through another target (issue #49).
@Suite struct TargetLayerTests {
    /// What only reads the desktop, and the files it reads with: none of these may reach `ReminderCore`.
    static let desktopReaders = ["FileKit", "DesktopWatch", "DoNotDisturb", "WaylandIdle", "Presence", "Busy", "DesktopBreaks", "Autostart"]

    /// Every target but the test targets, with the targets it names as dependencies.
    static let graph = Result { try dependencies() }

    @Test func nothingThatOnlyReadsTheDesktopReachesTheEngine() throws {
        let graph = try Self.graph.get()
        for reader in Self.desktopReaders {
            #expect(graph[reader] != nil, "Package.swift has no target \(reader)")
            let route = Self.route(from: reader, to: "ReminderCore", in: graph)
            #expect(route == nil, "\(reader) reaches ReminderCore: \(route?.joined(separator: " → ") ?? "")")
        }
        // The check finds a route where there is one: what follows the engine's status reaches it.
        #expect(Self.route(from: "Sound", to: "ReminderCore", in: graph) != nil)
        #expect(Self.route(from: "icared", to: "DesktopWatch", in: graph)?.first == "icared")
    }

    @Test func theTargetsPageNamesEachTargetOnceInItsLayer() throws {
        let graph = try Self.graph.get()
        let layers = try Self.pageLayers()
        let named = layers.flatMap(\.targets)
        #expect(layers.count >= 5, "\(layers.map(\.title))")
        #expect(Set(named).count == named.count, "named twice: \(named.filter { name in named.filter { $0 == name }.count > 1 })")
        #expect(Set(named) == Set(graph.keys),
                "not on docs/targets.md: \(Set(graph.keys).subtracting(named).sorted()); not a target: \(Set(named).subtracting(graph.keys).sorted())")
        var below: Set<String> = []
        for layer in layers {
            below.formUnion(layer.targets)
            for target in layer.targets {
                let later = (graph[target] ?? []).filter { !below.contains($0) }
                #expect(later.isEmpty, "\(target) (\(layer.title)) depends on \(later), which docs/targets.md puts in a later section")
            }
        }
    }

    /// The route finder on a small graph: it follows dependencies, not dependents.
    @Test func aRouteIsFoundThroughAnotherTarget() {
        let graph = ["A": ["B"], "B": ["C"], "C": [], "D": ["A"]]
        #expect(Self.route(from: "A", to: "C", in: graph) == ["A", "B", "C"])
        #expect(Self.route(from: "C", to: "A", in: graph) == nil)
        #expect(Self.route(from: "B", to: "D", in: graph) == nil)
    }

    /// A shortest chain of dependencies from `start` to `goal` (both included), or nil when `goal` is not reached.
    static func route(from start: String, to goal: String, in graph: [String: [String]]) -> [String]? {
        var cameFrom: [String: String] = [:]
        var queue = [start], seen: Set<String> = [start]
        while !queue.isEmpty {
            let target = queue.removeFirst()
            if target == goal {
                var chain = [goal]
                while let previous = cameFrom[chain[0]] { chain.insert(previous, at: 0) }
                return chain
            }
            for next in graph[target] ?? [] where seen.insert(next).inserted {
                cameFrom[next] = target
                queue.append(next)
            }
        }
        return nil
    }

    /// The package's targets from `swift package dump-package`, with a scratch folder of its own: the `.build`
    /// of the `swift test` running this is locked while it runs.
    static func dependencies() throws -> [String: [String]] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("icare-dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try Subprocess.run(["swift", "package", "--package-path", repository.path, "--scratch-path", scratch.path,
                                         "dump-package"], timeout: 300)
        guard result.status == 0, let package = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
              let targets = package["targets"] as? [[String: Any]] else { throw HarnessError("swift package dump-package: \(result)") }
        var graph: [String: [String]] = [:]
        for target in targets where target["type"] as? String != "test" {
            guard let name = target["name"] as? String else { continue }
            // A dependency is {"byName": [name, condition]}, {"target": [name, condition]} or {"product": [...]}.
            graph[name] = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                ((dependency["byName"] ?? dependency["target"]) as? [Any])?.first as? String
            }
        }
        return graph
    }

    /// The sections of docs/targets.md with the targets their tables name (the first column's `code` spans).
    static func pageLayers() throws -> [(title: String, targets: [String])] {
        let page = try MarkdownFile(repository.appendingPathComponent("docs/targets.md"))
        var layers: [(title: String, targets: [String])] = []
        for entry in page.linesWithFences where !entry.inCode {
            if entry.line.hasPrefix("## ") {
                layers.append((String(entry.line.dropFirst(3)), []))
            } else if entry.line.hasPrefix("| `"), !layers.isEmpty {
                let cell = entry.line.dropFirst(2).prefix { $0 != "|" }
                let names = cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
                layers[layers.count - 1].targets += names.map { String($0.element) }
            }
        }
        return layers.filter { !$0.targets.isEmpty }
    }
}
