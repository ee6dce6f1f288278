/**
 * The common type of everything `rest.newRoute` accepts after the codecs. `Req` and `Resp` are
 * phantom and contravariant: a request merge parameter is a `RouteOption<Req, unknown>`, a
 * response merge parameter a `RouteOption<unknown, Resp>`, metadata a
 * `RouteOption<unknown, unknown>`. This lets `rest.newPathParam('id', c, r => r.id, …)` infer
 * `r` from the route's request codec.
 */
export interface RouteOption<in Req, in Resp> {
  /** What the option is; `newRoute` sorts options by it. */
  readonly optionKind: string;
  /** Phantom carrier of the route types; never set. */
  readonly '~route'?: (req: Req, resp: Resp) => void;
}
