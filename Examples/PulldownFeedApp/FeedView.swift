import PulldownClient
import SwiftUI

/// The feed: a List with `.refreshable`, the next page as the last rows appear, the "N new items"
/// pill, and the rows under the feed the page has (loading, Try again, No items yet, No more items).
struct FeedView: View {
    let model: FeedModel

    var body: some View {
        NavigationStack {
            ScrollViewReader { scroller in
                List {
                    Section {
                        ForEach(model.items) { item in
                            ItemRow(item: item)
                                .id(item.id)
                                .onAppear { model.appeared(item) }
                        }
                    } header: {
                        Header(model: model)
                    } footer: {
                        EndRow(model: model)
                    }
                }
                .listStyle(.plain)
                .refreshable { await refresh() }
                .overlay(alignment: .top) {
                    if model.pill.count > 0 {
                        Button(newItems(model.pill)) {
                            Task {
                                await refresh()
                                if let first = model.items.first { withAnimation { scroller.scrollTo(first.id, anchor: .top) } }
                            }
                        }
                        .buttonStyle(.borderedProminent)
                        .clipShape(Capsule())
                        .padding(.top, 8)
                    }
                }
            }
            .navigationTitle("Pulldown")
            .task { await model.run() }
            // A burst of new items is announced once, when the count has been still for a second.
            .task(id: model.pill) {
                try? await Task.sleep(for: .seconds(1))
                if let pill = model.announcement() { AccessibilityNotification.Announcement(newItems(pill)).post() }
            }
        }
    }

    private func refresh() async {
        await model.refresh()
        UserDefaults.standard.set(model.client.sessionID, forKey: sessionKey)
    }
}

private func newItems(_ pill: LiveState.Pill) -> String {
    "\(pill.count)\(pill.more ? "+" : "") new item\(pill.count == 1 && !pill.more ? "" : "s")"
}

/// "Last updated on …", the feed starting over, a failed refresh.
private struct Header: View {
    let model: FeedModel

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text(model.lastUpdated.map { "Last updated on \($0.formatted(date: .numeric, time: .shortened))" }
                 ?? "Pull down to refresh")
            if model.startedOver { Text("The feed started over.") }
            if model.refreshError != nil {
                HStack {
                    Text("Couldn't refresh.")
                    Button("Try again") { Task { await model.refresh() } }
                }
            }
        }
        .font(.footnote)
        .foregroundStyle(.secondary)
    }
}

/// What the row under the feed says.
private struct EndRow: View {
    let model: FeedModel

    var body: some View {
        switch model.state.end {
        case .loading:
            ProgressView().frame(maxWidth: .infinity)
        case .failed:
            HStack {
                Text(model.items.isEmpty ? "Couldn't load the feed." : "Couldn't load more items.")
                Button("Try again") { Task { await model.retry() } }
            }
        case .empty:
            Text("No items yet")
        case .end:
            Text("No more items").frame(maxWidth: .infinity)
        case .more:
            EmptyView()
        }
    }
}

/// One item: the author's picture, the title, the text, and its picture in a box of its own size,
/// reserved before it loads, so nothing moves when it arrives (a failed one stays a grey box).
private struct ItemRow: View {
    let item: Item

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            HStack {
                AsyncImage(url: item.avatar) { $0.resizable() } placeholder: { Color.gray.opacity(0.2) }
                    .frame(width: 32, height: 32)
                    .clipShape(Circle())
                Text(item.author).font(.subheadline)
                Spacer()
                Text(item.createdAt, style: .relative).font(.caption).foregroundStyle(.secondary)
            }
            Text(item.title).font(.headline)
            if !item.body.isEmpty { Text(item.body) }
            if let image = item.image {
                Color.gray.opacity(0.2)
                    .aspectRatio(CGFloat(image.width) / CGFloat(image.height), contentMode: .fit)
                    .overlay { AsyncImage(url: image.url) { $0.resizable().scaledToFill() } placeholder: { Color.clear } }
                    .clipped()
                    .accessibilityLabel(image.alt ?? "")
            }
        }
        .padding(.vertical, 4)
    }
}
