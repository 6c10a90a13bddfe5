import Foundation
import PulldownHTTP

/// The OpenAPI 3.1 description of the API (`Resources/openapi.json`), served at
/// /api/openapi.json exactly as written there.
///
/// Keep it in step with `API`, `ItemsQuery`, `JSONBody`, `SessionResolver`, `DemoKnobs` and `CORS`:
/// the live tests check real answers against its schemas and its paths against the server's `Allow`.
enum OpenAPIDocument {
    /// The document as an answer, read once from the module's resources; nil when the file is
    /// missing or is not JSON (the build is broken: the server refuses to start).
    static let response: HTTPResponse? = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"),
              let data = try? Data(contentsOf: url),
              (try? JSONSerialization.jsonObject(with: data)) != nil else { return nil }
        var response = HTTPResponse.json(Array(data))
        // It changes only with the program: revalidate, and a 304 costs nothing.
        response.headers.add("ETag", EntityTag.strong(for: Array(data)))
        response.headers.add("Cache-Control", CacheControl.noCache)
        return response
    }()
}
