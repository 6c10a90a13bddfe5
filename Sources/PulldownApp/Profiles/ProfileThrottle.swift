import Dispatch
import Foundation
import PulldownHTTP

/// Applies each client's network profile (`NetworkProfiles`) in front of everything the server
/// answers, the page's files and pictures included, after which the demo knobs add theirs:
/// offline, a 503 at once; else the latency before the request goes on, and the answer's body
/// paced (`PacedBody`). Nothing here holds a server thread: a delayed request goes on from a
/// Dispatch timer, and a paced body waits suspended between slices.
struct ProfileThrottle: Sendable {
    let profiles: NetworkProfiles

    func wrap(_ next: @escaping HTTPHandler) -> HTTPHandler {
        { request, responder in
            // Most requests carry no session (curl, a load test): they pass untouched.
            guard let (id, profile) = profiles.session(of: request) else { return next(request, responder) }
            guard let profile else {
                return next(request, Responder { response in
                    if let stream = response.stream { profiles.opened(stream, by: id, profile: nil) }
                    responder.send(response)
                })
            }
            let now = profiles.now
            if let until = profile.offlineUntil, profile.isOffline(at: now) {
                return responder.send(Self.offline(until: until, now: now))
            }
            let throttled = Responder { response in
                if let stream = response.stream {
                    profiles.opened(stream, by: id, profile: profile)
                    responder.send(response)
                } else {
                    responder.send(PacedBody.response(response, to: request, pacing: profile.pacing))
                }
            }
            let delay = profile.headDelayMilliseconds()
            guard delay > 0 else { return next(request, throttled) }
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delay)) { next(request, throttled) }
        }
    }

    /// The answer to every request of a client that is offline: 503, and when to try again.
    static func offline(until: Date, now: Date, reason: String = "its network profile") -> HTTPResponse {
        let seconds = max(1, Int(until.timeIntervalSince(now).rounded(.up)))
        return Problem(status: 503, title: "Service Unavailable",
                       detail: "This client is offline for \(seconds) s more (\(reason)); nothing was done.",
                       type: "tag:pulldown,2026:offline", headers: HTTPHeaders([("Retry-After", String(seconds))])).response
    }
}
