import Foundation
import PackagePlugin

/// Links the window's GResource into `nudge-window`: the target's `ui/*.gresource.xml` and
/// the `.ui` files it lists, compiled by `resource-embed` into a Swift file of the target,
/// so the program carries its widget trees (no file to install or to find at run time).
/// Every file of `ui/` is an input: an edit builds the resource again.
@main struct WindowResources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Sources/\(target.name)/ui")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false)).sorted()
        guard let manifest = names.first(where: { $0.hasSuffix(".gresource.xml") }) else { return [] }
        let inputs = names.filter { $0.hasSuffix(".ui") || $0.hasSuffix(".gresource.xml") }.map { folder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(manifest) in \(target.name)",
                executable: try context.tool(named: "resource-embed").url,
                arguments: [folder.appending(path: manifest).path(percentEncoded: false), folder.path(percentEncoded: false),
                            output.path(percentEncoded: false)],
                inputFiles: inputs,
                outputFiles: [output]
            ),
        ]
    }
}
