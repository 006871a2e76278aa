import ArgumentParser
import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import GatehouseClient
import LoginCore

extension Gatehouse.Login {
    /// `gatehouse login --google` or `--provider ID`: the browser signs in with the provider and
    /// comes back to a loopback redirect (127.0.0.1, a random port, one request), with a state
    /// the terminal checks and PKCE S256; then the SDK exchanges the returned code for a session.
    func runProvider(_ id: SignInMethods.Method) async throws {
        let app = try server.app
        let url = try server.url
        // GraphQL apps exchange the code over the REST route beside it.
        let backend = app.backend.api == .graphql ? BackendConfiguration(api: .rest) : app.backend
        let (client, _) = try server.client(backend: backend)
        let verifier = Self.randomToken()
        let state = Self.randomToken()
        let redirect = try await LoopbackRedirect.start()
        let start = Self.startURL(
            server: url, backend: backend, provider: id, redirect: redirect.redirectURI, challenge: Self.challenge(verifier), state: state
        )
        let descriptor = ProviderDescriptor(id: id, label: app.providers[id.rawValue]?.label ?? id.displayName)
        let button = ProviderButton(configuration: app.login, provider: descriptor)
        Self.stopOnInterrupt()
        if noBrowser || !Self.openBrowser(start) {
            FileHandle.standardError.write(Data("Open this address in a browser to sign in with \(descriptor.label):\n".utf8))
        }
        FileHandle.standardOutput.write(Data((start + "\n").utf8))
        guard let answer = await redirect.next(timeout: 300) else {
            TerminalLoginScreen.printError("Sign-in timed out. Please try again.")
            throw ExitCode.failure
        }
        if let error = answer["error"] {
            TerminalLoginScreen.printError(error == "access_denied" ? "Sign-in cancelled" : descriptor.text(.failed, in: app.login.messages))
            throw ExitCode.failure
        }
        guard answer["state"] == state, let code = answer["code"] else {
            TerminalLoginScreen.printError("The answer did not come from this sign-in; please start again.")
            throw ExitCode.failure
        }
        let result: Result<GoogleSignIn, any Error> = await Spinner.run("Signing in…") {
            do { return .success(try await client.signInWithProvider(flowCode: code, verifier: verifier)) } catch { return .failure(error) }
        }
        let signIn: GoogleSignIn
        do {
            signIn = try result.get()
        } catch {
            var state = ProviderButtonState()
            _ = button.send(.finished(AuthClient.providerOutcome(.failure(error))), to: &state)
            TerminalLoginScreen.printError(state.error ?? state.notice ?? "Sign-in cancelled")
            throw ExitCode.failure
        }
        server.rememberable.save()
        let user = signIn.session.user
        print("Signed in as \(user.name)\(user.email.isEmpty ? "" : " <\(user.email)>")")
    }

    static func startURL(
        server: URL, backend: BackendConfiguration, provider: SignInMethods.Method, redirect: String, challenge: String, state: String
    ) -> String {
        let path = backend.api == .supabase ? backend.path + "/authorize" : "auth/\(provider.rawValue)/start"
        var components = URLComponents(url: server.appendingPathComponent(path), resolvingAgainstBaseURL: false) ?? URLComponents()
        var items = [
            URLQueryItem(name: "redirect_to", value: redirect), URLQueryItem(name: "code_challenge", value: challenge),
            URLQueryItem(name: "state", value: state),
        ]
        if backend.api == .supabase {
            // GoTrue calls Microsoft `azure`.
            let name = provider == .microsoft ? "azure" : provider.rawValue
            items += [URLQueryItem(name: "provider", value: name), URLQueryItem(name: "code_challenge_method", value: "s256")]
        }
        components.queryItems = items
        return components.string ?? server.absoluteString
    }

    /// 256 random bits, base64url: a PKCE verifier or a state.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func challenge(_ verifier: String) -> String {
        Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Opens the address in the desktop's browser; false when there is none to open.
    static func openBrowser(_ address: String) -> Bool {
        let opener = ProcessInfo.processInfo.environment["BROWSER"] ?? "xdg-open"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [opener, address]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Ctrl-C while waiting for the browser: "Sign-in cancelled", and a failing exit. The handler
    /// only calls `write` and `_exit`, which are safe in a signal handler.
    static func stopOnInterrupt() {
        signal(SIGINT) { _ in
            let message = Array("\n✗ Sign-in cancelled\n".utf8)
            _ = message.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            _exit(130)
        }
    }
}
