import PulldownHTTP

/// The OpenAPI 3.1 description of the API, served at /api/openapi.json exactly as written here.
///
/// Keep it in step with `API`, `ItemsQuery`, `JSONBody`, `SessionResolver`, `DemoKnobs` and `CORS`:
/// the live tests check real answers against its schemas and its paths against the server's `Allow`.
enum OpenAPIDocument {
    static let response: HTTPResponse = {
        var response = HTTPResponse.json(Array(json.utf8))
        response.headers.add("Cache-Control", "no-cache")
        return response
    }()

    static let json = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "Pulldown",
    "version": "1.0.0",
    "summary": "Keyset pages, pull-to-refresh and per-session last-updated for a pull-to-refresh demo.",
    "description": "Conventions that hold for every path below.\n\n- Errors are `application/problem+json` (RFC 9457, schema `Problem`); a validation error lists each bad parameter or field in `invalid_params`.\n- Every operation under `/api/` takes the demo knobs `_delay` and `_fail`. The server-wide knobs `--delay-ms`, `--jitter-ms` and `--fail-rate` apply to every `/api/` request as well; `--fail-rate` answers 503 with `Retry-After` before anything runs, so an injected failure never changes state.\n- A method a path does not list gets 405 with an `Allow` header naming the methods it does list (response `MethodNotAllowed`).\n- Any other path under `/api/` gets 404 (response `NotFound`).\n- A request body larger than 65536 bytes gets 413 (response `ContentTooLarge`), whatever the path.\n- Sessions: the server issues a signed 128-bit session id in the `pulldown_session` cookie and echoes it in `X-Session-Id`; clients without cookies send it back in the `X-Session-Id` request header. An id the server did not issue, or a malformed one, is replaced by a new one. Only `/api/refresh` and `/api/session` use sessions; pages (`/api/items`) are the same for every caller and carry none. Reading never creates a stored session; only a refresh does.\n- CORS is off unless the server runs with `--cors-origin ORIGIN`. Then responses to `/api/` carry `Vary: Origin` (all but the 413 and the 400 for a malformed request target, which are answered before the API sees the request); a request from a listed origin gets `Access-Control-Allow-Origin` (that origin), `Access-Control-Allow-Credentials: true` and `Access-Control-Expose-Headers`; and a preflight (`OPTIONS` with `Access-Control-Request-Method`) gets 204 with `Access-Control-Allow-Methods: GET, HEAD, POST` and `Access-Control-Allow-Headers: Content-Type, X-Session-Id, If-None-Match` for a listed origin, or 403 with a problem for any other."
  },
  "servers": [{"url": "/"}],
  "tags": [
    {"name": "items", "description": "The feed: keyset pages, single items, new items."},
    {"name": "refresh", "description": "Pull-to-refresh and the per-session state it keeps."},
    {"name": "meta", "description": "The document itself and the health check."}
  ],
  "paths": {
    "/api/items": {
      "description": "Allowed methods: GET, HEAD, POST; any other gets 405.",
      "get": {
        "operationId": "listItems",
        "tags": ["items"],
        "summary": "A page of items, newest first",
        "description": "Without `before` or `after`: the newest page. With `before=ID`: the items older than ID (exclusive). With `after=ID`: the `limit` items immediately newer than ID (exclusive, contiguous), newest first; `hasMore` is then true when more than `limit` newer items exist (the client is missing a gap). `before` and `after` together, a parameter given twice, or a parameter this endpoint does not know give 400. When `hasMore`, a `Link` header names the next page in the same direction.",
        "security": [{}, {"sessionCookie": []}, {"sessionHeader": []}],
        "parameters": [
          {"$ref": "#/components/parameters/limit"},
          {"$ref": "#/components/parameters/before"},
          {"$ref": "#/components/parameters/after"},
          {"$ref": "#/components/parameters/ifNoneMatch"},
          {"$ref": "#/components/parameters/delay"},
          {"$ref": "#/components/parameters/fail"}
        ],
        "responses": {
          "200": {"$ref": "#/components/responses/ItemPage"},
          "304": {"$ref": "#/components/responses/ItemPageNotModified"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "500": {"$ref": "#/components/responses/InternalServerError"},
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
        }
      },
      "head": {
        "operationId": "headItems",
        "tags": ["items"],
        "summary": "The headers of GET /api/items, without the body",
        "security": [{}, {"sessionCookie": []}, {"sessionHeader": []}],
        "parameters": [
          {"$ref": "#/components/parameters/limit"},
          {"$ref": "#/components/parameters/before"},
          {"$ref": "#/components/parameters/after"},
          {"$ref": "#/components/parameters/ifNoneMatch"},
          {"$ref": "#/components/parameters/delay"},
          {"$ref": "#/components/parameters/fail"}
        ],
        "responses": {
          "200": {"$ref": "#/components/responses/ItemPage"},
          "304": {"$ref": "#/components/responses/ItemPageNotModified"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "500": {"$ref": "#/components/responses/InternalServerError"},
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
        }
      },
      "post": {
        "operationId": "addItem",
        "tags": ["items"],
        "summary": "Add an item, so that the next refresh shows it",
        "description": "Title 1 to 200 characters after trimming, body up to 2000 characters after trimming (CRLF stored as LF), author optional, up to 80 characters after trimming (stored as `Anonymous` when absent or blank); no control characters except newline and tab in the body. Each bad field is named in `invalid_params`. The body must be a JSON object sent with `Content-Type: application/json`; unknown fields are rejected.",
        "parameters": [
          {"$ref": "#/components/parameters/delay"},
          {"$ref": "#/components/parameters/fail"}
        ],
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/NewItem"}}}
        },
        "responses": {
          "201": {
            "description": "The item was stored.",
            "headers": {"Location": {"$ref": "#/components/headers/Location"}},
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "413": {"$ref": "#/components/responses/ContentTooLarge"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "500": {"$ref": "#/components/responses/InternalServerError"},
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
        }
      }
    },
    "/api/items/{id}": {
      "description": "Allowed methods: GET, HEAD; any other gets 405. The `Location` of a new item.",
      "parameters": [
        {"name": "id", "in": "path", "required": true, "description": "The item's id (decimal digits only; anything else is an unknown path, 404).", "schema": {"type": "integer", "format": "int64", "minimum": 0}}
      ],
      "get": {
        "operationId": "getItem",
        "tags": ["items"],
        "summary": "One item",
        "parameters": [
          {"$ref": "#/components/parameters/delay"},
          {"$ref": "#/components/parameters/fail"}
        ],
        "responses": {
          "200": {"$ref": "#/components/responses/Item"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "500": {"$ref": "#/components/responses/InternalServerError"},
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
        }
      },
      "head": {
        "operationId": "headItem",
        "tags": ["items"],
        "summary": "The headers of GET /api/items/{id}, without the body",
        "parameters": [
          {"$ref": "#/components/parameters/delay"},
          {"$ref": "#/components/parameters/fail"}
        ],
        "responses": {
          "200": {"$ref": "#/components/responses/Item"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "500": {"$ref": "#/components/responses/InternalServerError"},
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
        }
      }
    },
    "/api/refresh": {
      "description": "Allowed methods: POST; any other gets 405.",
      "post": {
        "operationId": "refresh",
        "tags": ["refresh"],
        "summary": "Pull to refresh: the items newer than a baseline, and stamp the session",
        "description": "The baseline is `after`, else the newest id this session has already received, else 0. Returns the newest `limit` (default `--page-size`) items with an id above the baseline, newest first; `gap` is true when more than `limit` are newer. A refresh may first add 1 to 3 demo items when `--new-items-every` seconds have passed. Only a successful refresh stores the session and stamps its last-updated time; a failed one (any status but 200) changes nothing. A session that has none is issued one and is stored by this call.",
        "security": [{}, {"sessionCookie": []}, {"sessionHeader": []}],
        "parameters": [
          {"$ref": "#/components/parameters/delay"},
          {"$ref": "#/components/parameters/fail"}
        ],
        "requestBody": {
          "required": false,
          "description": "Optional: an empty (or blank) body counts as `{}`. A non-blank body must be a JSON object sent with `Content-Type: application/json`.",
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RefreshRequest"}}}
        },
        "responses": {
          "200": {
            "description": "What is new since the baseline.",
            "headers": {
              "Cache-Control": {"$ref": "#/components/headers/CacheControlNoStore"},
              "X-Session-Id": {"$ref": "#/components/headers/XSessionId"},
              "Set-Cookie": {"$ref": "#/components/headers/SetCookie"}
            },
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RefreshResult"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequestWithSession"},
          "413": {"$ref": "#/components/responses/ContentTooLarge"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "500": {"$ref": "#/components/responses/InternalServerError"},
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
        }
      }
    },
    "/api/session": {
      "description": "Allowed methods: GET, HEAD; any other gets 405.",
      "get": {
        "operationId": "getSession",
        "tags": ["refresh"],
        "summary": "The calling session's state",
        "description": "A caller without a valid session is issued one and gets the empty state (`null`, `null`, 0); nothing is stored.",
        "security": [{}, {"sessionCookie": []}, {"sessionHeader": []}],
        "parameters": [
          {"$ref": "#/components/parameters/delay"},
          {"$ref": "#/components/parameters/fail"}
        ],
        "responses": {
          "200": {"$ref": "#/components/responses/Session"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "500": {"$ref": "#/components/responses/InternalServerError"},
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
        }
      },
      "head": {
        "operationId": "headSession",
        "tags": ["refresh"],
        "summary": "The headers of GET /api/session, without the body",
        "security": [{}, {"sessionCookie": []}, {"sessionHeader": []}],
        "parameters": [
          {"$ref": "#/components/parameters/delay"},
          {"$ref": "#/components/parameters/fail"}
        ],
        "responses": {
          "200": {"$ref": "#/components/responses/Session"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "500": {"$ref": "#/components/responses/InternalServerError"},
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
        }
      }
    },
    "/api/openapi.json": {
      "description": "Allowed methods: GET, HEAD; any other gets 405.",
      "get": {
        "operationId": "getOpenAPIDocument",
        "tags": ["meta"],
        "summary": "This document",
        "parameters": [
          {"$ref": "#/components/parameters/delay"},
          {"$ref": "#/components/parameters/fail"}
        ],
        "responses": {
          "200": {"$ref": "#/components/responses/OpenAPIDocument"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "500": {"$ref": "#/components/responses/InternalServerError"},
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
        }
      },
      "head": {
        "operationId": "headOpenAPIDocument",
        "tags": ["meta"],
        "summary": "The headers of GET /api/openapi.json, without the body",
        "parameters": [
          {"$ref": "#/components/parameters/delay"},
          {"$ref": "#/components/parameters/fail"}
        ],
        "responses": {
          "200": {"$ref": "#/components/responses/OpenAPIDocument"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "500": {"$ref": "#/components/responses/InternalServerError"},
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
        }
      }
    },
    "/healthz": {
      "description": "Allowed methods: GET, HEAD; any other gets 405. Not under /api/: no demo knobs, no delay, no injected failure.",
      "get": {
        "operationId": "health",
        "tags": ["meta"],
        "summary": "200 when the store answers",
        "responses": {
          "200": {"$ref": "#/components/responses/Health"},
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
        }
      },
      "head": {
        "operationId": "headHealth",
        "tags": ["meta"],
        "summary": "The headers of GET /healthz, without the body",
        "responses": {
          "200": {"$ref": "#/components/responses/Health"},
          "503": {"$ref": "#/components/responses/ServiceUnavailable"}
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "sessionCookie": {
        "type": "apiKey", "in": "cookie", "name": "pulldown_session",
        "description": "The session id the server issued (64 lowercase hex characters: the id and its signature). Optional: without it, a new one is issued."
      },
      "sessionHeader": {
        "type": "apiKey", "in": "header", "name": "X-Session-Id",
        "description": "The same id, for clients without cookies; the header is tried before the cookie."
      }
    },
    "parameters": {
      "limit": {
        "name": "limit", "in": "query", "required": false,
        "description": "Items per page; defaults to the server's `--page-size` (10 unless set). Decimal digits only, at most once.",
        "schema": {"type": "integer", "minimum": 1, "maximum": 100}
      },
      "before": {
        "name": "before", "in": "query", "required": false,
        "description": "Return items with an id below this one (exclusive), newest first. Not with `after`.",
        "schema": {"type": "integer", "format": "int64", "minimum": 1, "maximum": 9223372036854775807}
      },
      "after": {
        "name": "after", "in": "query", "required": false,
        "description": "Return the items immediately newer than this id (exclusive), newest first. Not with `before`.",
        "schema": {"type": "integer", "format": "int64", "minimum": 0, "maximum": 9223372036854775807}
      },
      "ifNoneMatch": {
        "name": "If-None-Match", "in": "header", "required": false,
        "description": "An ETag from an earlier answer (or `*`); if it still matches, the answer is 304 without a body.",
        "schema": {"type": "string"}
      },
      "delay": {
        "name": "_delay", "in": "query", "required": false,
        "description": "Demo knob: answer after this many milliseconds (replaces `--delay-ms` and `--jitter-ms` for this request). The connection waits without holding a server thread.",
        "schema": {"type": "integer", "minimum": 0, "maximum": 10000}
      },
      "fail": {
        "name": "_fail", "in": "query", "required": false,
        "description": "Demo knob: answer with this status and a problem body instead of running the request (nothing changes); 429 and 503 carry `Retry-After`.",
        "schema": {"type": "integer", "enum": [429, 500, 503]}
      }
    },
    "headers": {
      "ETag": {"description": "A strong tag of the page's body.", "required": true, "schema": {"type": "string", "pattern": "^\"[0-9a-f]{16}\"$"}},
      "Link": {"description": "RFC 8288 link to the next page in the same direction, only when `hasMore`: `</api/items?limit=10&before=41>; rel=\"next\"` (or `after=` when walking newer).", "schema": {"type": "string", "pattern": "^</api/items\\?limit=[0-9]+&(before|after)=[0-9]+>; rel=\"next\"$"}},
      "Location": {"description": "The new item's URL, `/api/items/{id}`.", "required": true, "schema": {"type": "string", "pattern": "^/api/items/[0-9]+$"}},
      "XSessionId": {"description": "The caller's session id: the one it sent if valid, else a new one.", "required": true, "schema": {"type": "string", "pattern": "^[0-9a-f]{64}$"}},
      "SetCookie": {"description": "Only when a new session id was issued: `pulldown_session=ID; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax`.", "schema": {"type": "string", "pattern": "^pulldown_session=[0-9a-f]{64}; Path=/; Max-Age=[0-9]+; HttpOnly; SameSite=Lax$"}},
      "RetryAfter": {"description": "Seconds to wait before trying again.", "required": true, "schema": {"type": "integer", "minimum": 0}},
      "CacheControlNoCache": {"description": "Revalidate with `If-None-Match` before reuse.", "schema": {"type": "string", "const": "no-cache"}},
      "CacheControlNoStore": {"description": "Per-session state: never cached.", "schema": {"type": "string", "const": "no-store"}},
      "Allow": {"description": "The methods the path answers.", "required": true, "schema": {"type": "string"}}
    },
    "responses": {
      "ItemPage": {
        "description": "A page of items, newest first.",
        "headers": {
          "ETag": {"$ref": "#/components/headers/ETag"},
          "Link": {"$ref": "#/components/headers/Link"},
          "Cache-Control": {"$ref": "#/components/headers/CacheControlNoCache"}
        },
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ItemPage"}}}
      },
      "ItemPageNotModified": {
        "description": "`If-None-Match` names the current tag: nothing new, no body.",
        "headers": {
          "ETag": {"$ref": "#/components/headers/ETag"},
          "Link": {"$ref": "#/components/headers/Link"},
          "Cache-Control": {"$ref": "#/components/headers/CacheControlNoCache"}
        }
      },
      "Item": {
        "description": "The item.",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}
      },
      "Session": {
        "description": "The session's state.",
        "headers": {
          "Cache-Control": {"$ref": "#/components/headers/CacheControlNoStore"},
          "X-Session-Id": {"$ref": "#/components/headers/XSessionId"},
          "Set-Cookie": {"$ref": "#/components/headers/SetCookie"}
        },
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Session"}}}
      },
      "OpenAPIDocument": {
        "description": "This OpenAPI 3.1 document.",
        "headers": {"Cache-Control": {"$ref": "#/components/headers/CacheControlNoCache"}},
        "content": {"application/json": {"schema": {"type": "object", "required": ["openapi", "info", "paths"]}}}
      },
      "Health": {
        "description": "The store answers.",
        "headers": {"Cache-Control": {"$ref": "#/components/headers/CacheControlNoStore"}},
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Health"}}}
      },
      "BadRequest": {
        "description": "A bad demo knob, parameter or body (wrong Content-Type, malformed JSON or UTF-8, not an object, an unknown field, a field of the wrong type or out of range). `invalid_params` names each bad parameter or field where there is one to name.",
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
      },
      "BadRequestWithSession": {
        "description": "A bad demo knob, parameter or body, as in `BadRequest`. Once the knobs are valid, the answer also carries the session headers.",
        "headers": {
          "X-Session-Id": {"description": "The caller's session id (absent when a demo knob was bad).", "schema": {"type": "string", "pattern": "^[0-9a-f]{64}$"}},
          "Set-Cookie": {"$ref": "#/components/headers/SetCookie"}
        },
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
      },
      "NotFound": {
        "description": "No such item, or no such path under /api/.",
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
      },
      "MethodNotAllowed": {
        "description": "The path does not answer this method.",
        "headers": {"Allow": {"$ref": "#/components/headers/Allow"}},
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
      },
      "ContentTooLarge": {
        "description": "The request body is larger than 65536 bytes.",
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
      },
      "TooManyRequests": {
        "description": "Injected by `_fail=429`; nothing was changed.",
        "headers": {"Retry-After": {"$ref": "#/components/headers/RetryAfter"}},
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
      },
      "InternalServerError": {
        "description": "Injected by `_fail=500`; nothing was changed.",
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
      },
      "ServiceUnavailable": {
        "description": "Injected by `_fail=503` or `--fail-rate` (nothing was changed), or the store did not answer.",
        "headers": {"Retry-After": {"$ref": "#/components/headers/RetryAfter"}},
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
      }
    },
    "schemas": {
      "Item": {
        "type": "object",
        "description": "One entry of the feed. Ids only grow; newer items have larger ids; items never change.",
        "required": ["id", "title", "body", "author", "createdAt"],
        "additionalProperties": false,
        "properties": {
          "id": {"type": "integer", "format": "int64", "minimum": 1},
          "title": {"type": "string", "minLength": 1, "description": "1 to 200 characters."},
          "body": {"type": "string", "description": "Up to 2000 characters; may be empty."},
          "author": {"type": "string", "minLength": 1, "description": "Up to 80 characters; `Anonymous` when none was given."},
          "createdAt": {"type": "string", "format": "date-time", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$", "description": "UTC, whole seconds."}
        }
      },
      "ItemPage": {
        "type": "object",
        "required": ["items", "limit", "hasMore"],
        "additionalProperties": false,
        "properties": {
          "items": {"type": "array", "maxItems": 100, "items": {"$ref": "#/components/schemas/Item"}, "description": "Newest first."},
          "limit": {"type": "integer", "minimum": 1, "maximum": 100, "description": "The page size used."},
          "hasMore": {"type": "boolean", "description": "Without `after`: older items exist. With `after`: more newer items exist than were returned."}
        }
      },
      "NewItem": {
        "type": "object",
        "description": "Lengths count characters after trimming white space; blank counts as empty.",
        "required": ["title"],
        "additionalProperties": false,
        "properties": {
          "title": {"type": "string", "minLength": 1, "pattern": "^[^\\u0000-\\u001F]*[^\\s\\u0000-\\u001F\\u0085][^\\u0000-\\u001F]*$", "description": "1 to 200 characters after trimming; not blank; no control characters (U+0000 to U+001F)."},
          "body": {"type": ["string", "null"], "pattern": "^(?:[^\\u0000-\\u0008\\u000B-\\u001F]|\\r\\n)*$", "description": "Up to 2000 characters after trimming; newline (LF or CRLF) and tab allowed, no other control characters. Absent or null is empty."},
          "author": {"type": ["string", "null"], "pattern": "^[^\\u0000-\\u001F]*$", "description": "Up to 80 characters after trimming; no control characters. Absent, null or blank is `Anonymous`."}
        }
      },
      "RefreshRequest": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "after": {"type": ["integer", "null"], "format": "int64", "minimum": 0, "maximum": 9223372036854775807, "description": "The newest id the client has; absent or null means the newest id this session has already received."},
          "limit": {"type": ["integer", "null"], "minimum": 1, "maximum": 100, "description": "At most this many items; absent or null means `--page-size`."}
        }
      },
      "RefreshResult": {
        "type": "object",
        "required": ["items", "gap", "lastUpdated"],
        "additionalProperties": false,
        "properties": {
          "items": {"type": "array", "maxItems": 100, "items": {"$ref": "#/components/schemas/Item"}, "description": "Newest first, at most `limit`."},
          "gap": {"type": "boolean", "description": "More items are newer than the baseline than were returned: the client has a hole to fill (with `GET /api/items?after=`)."},
          "lastUpdated": {"type": "string", "format": "date-time", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$", "description": "The session's last successful refresh (this one), UTC."}
        }
      },
      "Session": {
        "type": "object",
        "required": ["lastUpdated", "lastSeenId", "refreshCount"],
        "additionalProperties": false,
        "properties": {
          "lastUpdated": {"type": ["string", "null"], "format": "date-time", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$", "description": "The last successful refresh, UTC; null before the first."},
          "lastSeenId": {"type": ["integer", "null"], "format": "int64", "minimum": 0, "description": "The newest item id a refresh has given this session; null before the first."},
          "refreshCount": {"type": "integer", "minimum": 0, "description": "Successful refreshes."}
        }
      },
      "Health": {
        "type": "object",
        "required": ["status"],
        "additionalProperties": false,
        "properties": {"status": {"const": "ok"}}
      },
      "Problem": {
        "type": "object",
        "description": "RFC 9457 problem details.",
        "required": ["type", "title", "status", "detail"],
        "additionalProperties": false,
        "properties": {
          "type": {"type": "string", "format": "uri-reference", "description": "`about:blank`: the status says it all."},
          "title": {"type": "string", "description": "The status's reason phrase."},
          "status": {"type": "integer", "minimum": 400, "maximum": 599},
          "detail": {"type": "string", "description": "What went wrong, for a person."},
          "invalid_params": {
            "type": "array",
            "minItems": 1,
            "description": "Each bad parameter or field; present only for validation errors.",
            "items": {
              "type": "object",
              "required": ["name", "reason"],
              "additionalProperties": false,
              "properties": {
                "name": {"type": "string", "description": "The query parameter, body field or header (`Content-Type`)."},
                "reason": {"type": "string"}
              }
            }
          }
        }
      }
    }
  }
}
"""#
}
