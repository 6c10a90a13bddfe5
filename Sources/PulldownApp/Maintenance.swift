import Dispatch
import PulldownFeed
import PulldownHTTP

/// Background chores: picking up edits to the page's files, forgetting idle sessions, the demo
/// items that appear while someone watches the live feed, and the demo's edits and deletions.
final class Maintenance: Sendable {
    private let timers: [RepeatingTimer]
    private let generator: DemoGeneratorTimer
    private let churn: DemoChurnTimer

    init(feed: Feed, staticFiles: StaticFiles, live: LiveEvents, demo: DemoControl) {
        let queue = DispatchQueue(label: "pulldown.maintenance", qos: .utility)
        let reload = RepeatingTimer(every: 1, on: queue) { staticFiles.reloadIfChanged() }
        let expire = RepeatingTimer(every: 3600, on: queue) {
            do {
                try feed.expireIdleSessions()
            } catch {
                ErrorLog.write("cannot forget idle sessions: \(error)")
            }
        }
        timers = [reload, expire]
        generator = DemoGeneratorTimer(feed: feed, whileWatched: { live.openStreams > 0 },
                                       onError: { ErrorLog.write("demo generator: \($0)") })
        churn = DemoChurnTimer(churn: DemoChurn(feed: feed), knobs: { demo.knobs },
                               onError: { ErrorLog.write("demo edits and deletions: \($0)") })
    }

    func cancel() {
        timers.forEach { $0.cancel() }
        generator.cancel()
        churn.cancel()
    }
}
