/// The `Cache-Control` values that say how long an answer may be kept, each spelled once;
/// which answer gets which is decided where it is built (the feed's pages: `PageCaching`).
public enum CacheControl {
    /// Kept by no cache: an answer for this request or session only, and every error.
    public static let noStore = "no-store"
    /// Kept, but asked again before each use (a 304 while it has not changed).
    public static let noCache = "no-cache"
}
