import Dispatch
import PulldownHTTP

/// The knobs as middleware in front of the API. A delayed answer holds no server thread: the
/// connection is suspended and the request goes on on a Dispatch queue when the time is up. An
/// injected failure is decided before anything runs, so it never changes anything. Each request
/// reads the knobs as they are when it arrives.
struct DemoKnobsMiddleware: HTTPMiddleware {
    let control: DemoControl

    func handle(_ request: HTTPRequest, _ responder: Responder, next: @escaping HTTPHandler) {
        let plan: DemoKnobs.Plan
        do {
            let target = FaultQueue.Target(method: request.method, path: request.path)
            plan = try control.knobs.plan(for: request, takeFault: { target.flatMap(control.takeFault) })
        } catch {
            return responder.send(error.response)
        }
        let answer: @Sendable () -> Void = {
            if let failure = plan.failure {
                responder.send(failure.response)
            } else {
                next(request, responder)
            }
        }
        if plan.delayMilliseconds > 0 {
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(plan.delayMilliseconds), execute: answer)
        } else {
            answer()
        }
    }
}
