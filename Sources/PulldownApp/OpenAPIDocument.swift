import PulldownHTTP

/// The OpenAPI 3.1 description of the API, served at /api/openapi.json.
enum OpenAPIDocument {
    static let response: HTTPResponse = {
        var response = HTTPResponse.json(Array(json.utf8))
        response.headers.add("Cache-Control", "no-cache")
        return response
    }()

    static let json = #"{"openapi":"3.1.0","info":{"title":"Pulldown","version":"1.0.0"},"paths":{}}"#
}
