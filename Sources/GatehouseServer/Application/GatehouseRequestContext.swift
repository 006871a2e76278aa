import Hummingbird

/// The request context of Gatehouse's routes: the default one, with bodies capped at 16 KiB.
public struct GatehouseRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: Source) {
        coreContext = .init(source: source)
    }

    /// Login and refresh bodies are a few hundred bytes; anything over 16 KiB is refused.
    public var maxUploadSize: Int { 16 * 1024 }
}
