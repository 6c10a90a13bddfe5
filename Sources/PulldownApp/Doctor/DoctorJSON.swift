import Foundation
import PulldownDoctor
import PulldownHTTP

/// The doctor's answers as JSON (`/api/doctor`, `/api/doctor/{client}`, `event: doctor`).
enum DoctorJSON {
    /// `{"clients": [client…], "limits": {"clients": 64, "requests": 200, "perSecond": 2000},
    /// "skipped": 0}`, the one seen last first.
    static func clients(_ clients: [ClientBook.Client], skipped: Int) -> [UInt8] {
        var json = JSONWriter(capacity: 512 * max(1, clients.count))
        json.beginObject()
        json.key("clients")
        json.beginArray()
        for client in clients { summary(client, to: &json) }
        json.endArray()
        json.key("limits")
        json.beginObject()
        json.key("clients"); json.integer(ClientBook.maxClients)
        json.key("requests"); json.integer(ClientBook.maxRequests)
        json.key("perSecond"); json.integer(ClientDoctor.perSecond)
        json.endObject()
        json.key("skipped"); json.integer(skipped)
        json.endObject()
        return json.bytes
    }

    /// One client with its timeline, oldest request first.
    static func client(_ client: ClientBook.Client) -> [UInt8] {
        var json = JSONWriter(capacity: 4096)
        summary(client, to: &json, timeline: true)
        return json.bytes
    }

    /// `event: doctor` with `{"client": {…}}`: the client a finding was added to, as the list shows it.
    static func event(_ client: ClientBook.Client) -> [UInt8] {
        var json = JSONWriter(capacity: 1024)
        json.beginObject()
        json.key("client")
        summary(client, to: &json)
        json.endObject()
        return ServerSentEvents.event("doctor", id: nil, data: json.bytes)
    }

    private static func summary(_ client: ClientBook.Client, to json: inout JSONWriter, timeline: Bool = false) {
        let caller = client.caller
        json.beginObject()
        json.key("id"); json.string(client.id)
        json.key("session")
        if let session = caller.session { json.string(session) } else { json.null() }
        json.key("address"); json.string(caller.address)
        json.key("userAgent"); json.string(caller.userAgent)
        json.key("firstSeen"); json.string(Timestamp.iso8601(client.firstSeen, milliseconds: true))
        json.key("lastSeen"); json.string(Timestamp.iso8601(client.lastSeen, milliseconds: true))
        json.key("requests"); json.integer(client.requests)
        json.key("findings")
        json.beginArray()
        for finding in client.findings { write(finding, to: &json) }
        json.endArray()
        if timeline {
            json.key("timeline")
            json.beginArray()
            for entry in client.timeline.elements { write(entry.request, rule: entry.rule, to: &json) }
            json.endArray()
        }
        json.endObject()
    }

    private static func write(_ finding: Finding, to json: inout JSONWriter) {
        json.beginObject()
        json.key("rule"); json.string(finding.rule.name)
        json.key("title"); json.string(finding.rule.title)
        json.key("advice"); json.string(finding.rule.advice)
        json.key("docs"); json.string("docs/doctor.md#\(finding.rule.name)")
        json.key("count"); json.integer(finding.count)
        json.key("firstSeen"); json.string(Timestamp.iso8601(finding.firstSeen, milliseconds: true))
        json.key("lastSeen"); json.string(Timestamp.iso8601(finding.lastSeen, milliseconds: true))
        json.key("example"); write(finding.example, to: &json)
        json.key("because")
        if let because = finding.because { write(because, to: &json) } else { json.null() }
        json.endObject()
    }

    /// A request as the timeline shows it.
    private static func write(_ request: ObservedRequest, rule: (any Rule.Type)? = nil, to json: inout JSONWriter) {
        json.beginObject()
        json.key("method"); json.string(request.method)
        json.key("url"); json.string(request.target)
        json.key("status"); json.integer(request.status)
        json.key("at"); json.string(Timestamp.iso8601(request.started, milliseconds: true))
        json.key("durationMs"); json.number((request.ended.timeIntervalSince(request.started) * 10_000).rounded() / 10)
        json.key("cursor")
        if let cursor = cursor(request.ask) { json.string(cursor) } else { json.null() }
        json.key("ifNoneMatch"); json.bool(request.sentValidator)
        json.key("lastEventId")
        if case .stream(let id?, _) = request.ask { json.integer(id) } else { json.null() }
        json.key("retryAfter"); optional(request.answer.retryAfter.map(Int64.init), to: &json)
        json.key("hasMore"); optional(request.answer.hasMore, to: &json)
        json.key("gap"); optional(request.answer.gap, to: &json)
        json.key("rule")
        if let rule { json.string(rule.name) } else { json.null() }
        json.endObject()
    }

    /// `newest`, `before=41`, `after=3`, `item 7`, `refresh after=50`, `stream after=45`: what was asked.
    static func cursor(_ ask: ObservedRequest.Ask) -> String? {
        switch ask {
        case .page(.newest, let limit): "newest, limit=\(limit)"
        case .page(.before(let id), let limit): "before=\(id), limit=\(limit)"
        case .page(.after(let id), let limit): "after=\(id), limit=\(limit)"
        case .item(let id): "item \(id)"
        case .refresh(let after, let changes):
            (after.map { "refresh after=\($0)" } ?? "refresh") + (changes.map { ", changes=\($0)" } ?? "")
        case .stream(let lastEventID, let after):
            lastEventID.map { "stream from Last-Event-ID \($0)" } ?? after.map { "stream after=\($0)" } ?? "stream"
        case .other: nil
        }
    }

    private static func optional(_ value: Int64?, to json: inout JSONWriter) {
        if let value { json.integer(value) } else { json.null() }
    }

    private static func optional(_ value: Bool?, to json: inout JSONWriter) {
        if let value { json.bool(value) } else { json.null() }
    }
}
