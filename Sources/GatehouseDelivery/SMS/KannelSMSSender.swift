import AsyncHTTPClient
import Foundation
import GatehouseCore
import Logging

/// Sends each SMS through a Kannel gateway's `sendsms` HTTP interface (smsbox).
///
/// Kannel (`bearerbox` + `smsbox`) relays to real SMS centres over SMPP, EMI, AT modems and
/// more; Gatehouse only speaks its documented HTTP interface. Kannel answers 202
/// "Accepted for delivery" for a queued message.
public struct KannelSMSSender: MessageSender {
    package let endpoint: String
    package let username: String
    package let password: String
    /// The sender number or name shown to the user.
    package let from: String?
    package let delivery: HTTPDelivery
    package let logger: Logger

    /// - Parameters:
    ///   - endpoint: the smsbox URL, such as `http://127.0.0.1:13013/cgi-bin/sendsms`.
    ///   - username: a `sendsms-user` of the smsbox configuration.
    ///   - password: its password.
    public init(endpoint: String, username: String, password: String, from: String?, logger: Logger) throws {
        guard let url = URL(string: endpoint), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw DeliveryError("the Kannel URL must be an http(s) URL such as http://127.0.0.1:13013/cgi-bin/sendsms")
        }
        self.endpoint = endpoint
        self.username = username
        self.password = password
        self.from = from
        delivery = HTTPDelivery()
        self.logger = logger
    }

    public func send(_ outgoing: OutgoingMessage) async throws {
        guard case .sms(let message) = outgoing else { throw DeliveryError("Kannel carries only SMS") }
        var components = URLComponents(string: endpoint)
        var items = [
            URLQueryItem(name: "username", value: username), URLQueryItem(name: "password", value: password),
            URLQueryItem(name: "to", value: message.to), URLQueryItem(name: "text", value: message.body),
            URLQueryItem(name: "charset", value: "UTF-8"),
        ]
        // GSM 7-bit fits 160 characters of plain text; anything else goes as UCS-2.
        if !message.body.allSatisfy(\.isASCII) { items.append(URLQueryItem(name: "coding", value: "2")) }
        if let from { items.append(URLQueryItem(name: "from", value: from)) }
        components?.queryItems = items
        // "+" is a space in a query; Kannel must see the number's plus sign.
        let query = components?.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        components?.percentEncodedQuery = query
        guard let url = components?.url?.absoluteString else { throw DeliveryError("kannel: bad URL") }
        try await delivery.send({ HTTPClientRequest(url: url) }, provider: "kannel", logger: logger)
        logger.info("SMS handed to Kannel", metadata: ["sms.to": "\(PhoneLog.redacted(message.to))"])
    }
}
