import Foundation
import PulldownDataFile
import PulldownFeed
import PulldownHTTP

/// The pictures Pulldown serves itself: the demo's (`DemoPictureDrawing`) under
/// `DemoPictures.routePrefix`, and the data file's (`DataPictures`) under its prefix. A picture at
/// a name never changes, in any store or program version, so it is cached for good: a data
/// file's picture is named by its content, and a demo picture's bytes are pinned by
/// `DemoPictureNamesTests` (drawn differently, it needs a new name).
struct PictureRoutes: Sendable {
    let dataPictures: DataPictures

    func addRoutes(to router: inout Router) {
        router.get(DataPictures.routePrefix + "{digest}/{path}") { [dataPictures] request in
            guard let digest = request.pathParameters["digest"], let path = request.pathParameters["path"],
                  let picture = dataPictures.picture(digest: digest, path: path) else {
                return Problem.notFound("There is no picture at \(request.path).").response
            }
            return Self.immutable(picture.bytes, contentType: picture.contentType, for: request)
        }
        router.get(DemoPictures.routePrefix + "{name}") { request in
            guard let name = request.pathParameters["name"], let picture = DemoPictureDrawing.picture(named: name) else {
                return Problem.notFound("There is no picture at \(request.path).").response
            }
            guard let body = picture.body else {
                return Problem(status: 500, title: "Internal Server Error", detail: "The picture could not be drawn.").response
            }
            return Self.immutable(body, contentType: picture.contentType, for: request)
        }
    }

    /// `body` with its type, a strong ETag and immutable caching; a 304 when the request names
    /// the tag already.
    static func immutable(_ body: [UInt8], contentType: String, for request: HTTPRequest) -> HTTPResponse {
        var response = HTTPResponse(status: 200, body: body)
        response.headers.add("Content-Type", contentType)
        response.headers.add("ETag", EntityTag.strong(for: body))
        response.headers.add("Cache-Control", PageCaching.immutable)
        return response.conditional(for: request)
    }
}
