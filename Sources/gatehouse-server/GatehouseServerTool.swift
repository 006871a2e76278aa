import ArgumentParser
import GatehouseCommands

/// `gatehouse-server`: only the auth server (`gatehouse-server serve …`), without the client
/// SDK and its HTTP stack, so a running server maps less code. `gatehouse serve` runs this.
@main
struct GatehouseServerTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gatehouse-server",
        abstract: "The Gatehouse auth server.",
        subcommands: [ServeCommand.self],
        defaultSubcommand: ServeCommand.self
    )

    static func main() async {
        await runAsTool(named: "gatehouse")
    }
}
