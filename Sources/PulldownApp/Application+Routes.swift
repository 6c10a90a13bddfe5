import PulldownDataFile
import PulldownFeed
import PulldownHTTP

extension Application {
    /// The server's one router: `/api/` through CORS and the demo knobs to the API, `/api/demo`
    /// (which steers the knobs) through CORS and `demoAccess` (nil: not served); `/api/doctor`
    /// through CORS and the same access, with every other `/api/` exchange reported to the doctor
    /// (nil: it is off); `/media/` (pictures) through CORS; `/healthz`; `/trust…`, the `--https`
    /// trust page and root (`trust`); `/` with the newest page in it, and `/item.html`; everything
    /// else is a file of the page. Each client's network profile (`profiles`, served with the demo
    /// API) comes in front of all of it.
    static func handler(feed: Feed, tokens: SessionTokens, staticFiles: StaticFiles, openAPI: HTTPResponse,
                        live: LiveEvents, demo: DemoControl, demoSync: DemoKnobsSync?, demoAccess: DemoAccess?,
                        reset: DemoReset, configuration: Configuration, dataPictures: DataPictures? = nil,
                        trust: TrustRoutes? = nil, profiles: NetworkProfiles? = nil,
                        doctor: (ClientDoctor, access: DemoAccess)? = nil, scripting: ScriptWiring? = nil) -> HTTPHandler {
        let baseURL = BaseURL(configured: configuration.publicURL)
        let cors = CORS(credentialedOrigins: Set(configuration.corsOrigins))
        let api = API(feed: feed, sessions: SessionResolver(tokens: tokens), pageSize: configuration.pageSize,
                      baseURL: baseURL, cors: cors, pages: ValidatedPageCache(bytes: configuration.pageCacheBytes), demo: demo)
        // What an edit or a deletion touched goes before anyone is told the change happened.
        feed.observeChanges { notice in api.pages.drop(notice.ids) }
        let knobs = DemoKnobsMiddleware(control: demo)
        var router = Router(fallback: { request in staticFiles.respond(to: request) })
        let home = HomePage(feed: feed, files: staticFiles, pageSize: configuration.pageSize,
                            demoButton: .init(access: demoAccess), baseURL: baseURL)
        for path in ["/", "/index.html"] {
            router.add("GET", path, answeringLater: { request, responder in home.respond(to: request, responder) })
        }
        router.add("GET", "/item.html", answeringLater: { request, responder in home.respondWithItemPage(to: request, responder) })
        // Editing and deleting need what steering the demo needs; with the demo API off, the
        // token (if any) is still the one given.
        api.addRoutes(to: &router, openAPI: openAPI,
                      writeAccess: demoAccess ?? DemoAccess(host: configuration.server.host, configured: configuration.demoToken,
                                                            baseURL: baseURL))
        EventsEndpoint(live: live, baseURL: baseURL).addRoute(to: &router)
        PictureRoutes(dataPictures: dataPictures ?? DataPictures(dataFile: ""), baseURL: baseURL).addRoutes(to: &router)
        router.get("/healthz") { _ in api.health() }
        (trust ?? TrustRoutes(ca: nil, files: staticFiles)).addRoutes(to: &router)
        let watched: [any HTTPMiddleware] = doctor.map { [DoctorHook(doctor: $0.0)] } ?? []
        let gate: [any HTTPMiddleware] = scripting.map { [$0.stage.gate] } ?? []
        router.scope("/api", middleware: watched + [cors] + gate + [knobs], notFound: API.notFound)
        router.scope("/media", middleware: [cors], notFound: { request in
            Problem.notFound("There is no picture at \(request.path).").response
        })
        if let (doctor, access) = doctor {
            DoctorEndpoints(doctor: doctor).addRoutes(to: &router)
            router.scope("/api/doctor", middleware: [cors.refusingPreflights(access.preflightRefusal), access],
                         notFound: API.notFound)
        } else {
            router.scope("/api/doctor", middleware: [], notFound: DoctorEndpoints.off)
        }
        if let demoAccess {
            DemoEndpoints(control: demo, items: DemoItems(feed: feed, baseURL: baseURL), churn: DemoChurn(feed: feed, baseURL: baseURL), reset: reset,
                          sync: demoSync).addRoutes(to: &router)
            profiles.map { ProfileEndpoints(profiles: $0, sessions: api.sessions).addRoutes(to: &router) }
            scripting?.endpoints(generate: { if live.openStreams > 0 { try? feed.generateDueItems() } }).addRoutes(to: &router)
            router.scope("/api/demo", middleware: [cors.refusingPreflights(demoAccess.preflightRefusal), demoAccess],
                         notFound: API.notFound)
        }
        return profiles.map { ProfileThrottle(profiles: $0).wrap(router.handler) } ?? router.handler
    }
}
