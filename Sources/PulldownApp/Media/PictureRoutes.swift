import Foundation
import PulldownDataFile
import PulldownFeed
import PulldownHTTP

/// The pictures Pulldown serves itself: the demo's (`DemoPictureDrawing`) under
/// `DemoPictures.routePrefix`, and the data file's (`DataPictures`) under its prefix. A picture at
/// a name never changes, in any store or program version, so it is cached for good: a data
/// file's picture is named by its content, and a demo picture's bytes are pinned by
/// `DemoPictureNamesTests` (drawn differently, it needs a new name). The names of the SVG avatars
/// of earlier versions, still in the items of stores made then, answer 301 to their PNG, kept for
/// a day only, so that a later version may answer them otherwise. And the page's icon,
/// `/favicon.png`, revalidated, since a later version may draw it otherwise.
struct PictureRoutes: Sendable {
    let dataPictures: DataPictures
    var baseURL = BaseURL()

    static let movedMaxAge = "max-age=86400"

    func addRoutes(to router: inout Router) {
        router.get(DataPictures.routePrefix + "{digest}/{path}") { [dataPictures] request in
            guard let digest = request.pathParameters["digest"], let path = request.pathParameters["path"],
                  let picture = dataPictures.picture(digest: digest, path: path) else {
                return Problem.notFound("There is no picture at \(request.path).").response
            }
            return Self.immutable(picture.bytes, contentType: picture.contentType, for: request)
        }
        router.get(DemoPictures.routePrefix + "{name}") { [baseURL] request in
            guard let name = request.pathParameters["name"] else { return Problem.notFound("There is no picture here.").response }
            if let moved = DemoPictureDrawing.movedPicture(named: name) {
                return API.answer { try Self.moved(to: baseURL.require(request) + DemoPictures.routePrefix + moved) }
            }
            guard let picture = DemoPictureDrawing.picture(named: name) else {
                return Problem.notFound("There is no picture at \(request.path).").response
            }
            guard let body = picture.body else {
                return Problem(status: 500, title: "Internal Server Error", detail: "The picture could not be drawn.").response
            }
            return Self.immutable(body, contentType: picture.contentType, for: request)
        }
        router.get("/favicon.png") { request in
            guard let icon = DemoPictureDrawing.favicon else {
                return Problem(status: 500, title: "Internal Server Error", detail: "The icon could not be drawn.").response
            }
            var response = HTTPResponse(status: 200, body: icon)
            response.headers.add("Content-Type", "image/png")
            response.headers.add("ETag", EntityTag.strong(for: icon))
            response.headers.add("Cache-Control", CacheControl.noCache)
            return response.conditional(for: request)
        }
    }

    /// 301 to `location`, for a day.
    static func moved(to location: String) -> HTTPResponse {
        var response = HTTPResponse(status: 301)
        response.headers.add("Location", location)
        response.headers.add("Cache-Control", movedMaxAge)
        return response
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
