/**
 * The common type of everything `rest.newRoute` accepts after the codecs. `Req` and `Resp` are
 * phantom and contravariant: a request merge parameter is a `RouteOption<Req, unknown>`, a
 * response merge parameter a `RouteOption<unknown, Resp>`, metadata a
 * `RouteOption<unknown, unknown>`. This lets `rest.newPathParam('id', c, r => r.id, …)` infer
 * `r` from the route's request codec. `Err` is the typed error response the option declares:
 * an `errorPattern`'s status and body (`DeclaredError`), `never` for every other option.
 */
export interface RouteOption<in Req, in Resp, out Err = never> {
  /** What the option is; `newRoute` sorts options by it. */
  readonly optionKind: string;
  /** Phantom carrier of the route types; never set. */
  readonly '~route'?: (req: Req, resp: Resp) => void;
  /** Phantom carrier of the declared error response; never set. */
  readonly '~error'?: Err;
}
