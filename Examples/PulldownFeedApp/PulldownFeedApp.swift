import PulldownClient
import SwiftUI

/// A feed with pull to refresh, paging, live items and its error states, on PulldownClient's
/// FeedModel. The simulator reaches the Mac's own `make run`; a phone needs the Mac's address
/// (`make run ARGS="--host 0.0.0.0"` prints it).
@main
struct PulldownFeedApp: App {
    @State private var model = FeedModel(client: PulldownClient(
        baseURL: URL(string: "http://127.0.0.1:8080")!,
        sessionID: UserDefaults.standard.string(forKey: sessionKey)))

    var body: some Scene {
        WindowGroup {
            FeedView(model: model)
        }
    }
}

/// Where the session is kept across launches, so "Last updated on …" is this app's.
let sessionKey = "pulldown-session"
