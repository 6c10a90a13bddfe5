import Foundation
import PulldownClient

/// README's "Swift client" example, as written there: compiled with the tests, so it stays true.
func readmeExample() async throws {
    let client = PulldownClient(baseURL: URL(string: "http://127.0.0.1:8080")!)

    for try await page in client.pages() {                    // the whole feed, newest first, page by page
        for item in page.items { print(item.id, item.title) }
    }
    let news = try await client.refresh()                     // pull to refresh: what is new since the last
    print("\(news.items.count) new, last updated \(news.lastUpdated)")
    for try await case .items(let batch) in client.events() { // live: new items as they are posted
        print(batch.items.map(\.title))
    }
}
