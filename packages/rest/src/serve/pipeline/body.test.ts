import * as codec from '@lib/codec';
import * as validate from '@lib/validate';
import { json, type Format } from '@lib/format';
import { describe, expect, it } from 'vitest';
import * as rest from '../../index.js';
import { BodyRefused, bodyDecoder, compileBody } from './body.js';
import { routePlan } from './prepare.js';
import { compileParameters } from './parameters.js';
import { Exchange } from './stage.js';
import type { PipelineRequest } from './exchange.js';

const user = codec.object({ name: codec.string().refine(validate.minLength(1)), email: codec.string() });
const asJson = json(user) as Format<unknown>;
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('body (400)', () => {
  it('decodes the bytes by their format, and gives the codec its value of no body where there is none', () => {
    const decode = bodyDecoder(user as codec.Codec<unknown>, { observer: undefined, route: 'r' });
    expect(decode(asJson, bytes('{"name":"a","email":"e"}'))).toEqual({ name: 'a', email: 'e' });
    expect(bodyDecoder(codec.empty<object>() as codec.Codec<unknown>, { observer: undefined, route: 'r' })(undefined, undefined)).toEqual({});
  });

  it('keeps a refused body for the 400 and reports each issue by its path, or the body as a whole', () => {
    const reported: string[] = [];
    const observer: rest.Observer = { onValidationError: ({ location, name }) => void reported.push(`${location} ${name}`) };
    const decode = bodyDecoder(user as codec.Codec<unknown>, { observer, route: 'r' });
    const refused = decode(asJson, bytes('{"name":"","email":1}'));
    expect(refused).toBeInstanceOf(BodyRefused);
    expect((refused as BodyRefused).error).toBeInstanceOf(rest.RequestBodyError);
    expect(reported).toEqual(['body name', 'body email']);
    reported.length = 0;
    expect(decode(asJson, bytes('{'))).toBeInstanceOf(BodyRefused);
    expect(reported).toEqual(['body body']);
  });

  it('refuses the failures of the parameters and the body with one RequestValidationError', () => {
    interface Req {
      name: string;
      email: string;
      dryRun?: boolean;
    }
    const api = rest.newServer({ title: 't', version: '1' });
    rest
      .newRoute('POST', '/users', user as unknown as codec.Codec<Req>, codec.empty<object>(), rest.newOptionalQueryParam('dryRun', codec.boolString(), (r: Req) => r.dryRun, (r, v) => void (r.dryRun = v)))
      .withHandler(() => ({}))
      .register(api);
    const plan = routePlan(api.handles()[0] as rest.RouteHandle<unknown, unknown>, api.servingSettings(), undefined, undefined);
    const run = (rawQuery: string, body: string): unknown => {
      const ex = new Exchange({ rawQuery, pathParams: {}, header: () => undefined } as unknown as PipelineRequest, asJson);
      ex.reqFormat = asJson;
      ex.body = bytes(body);
      compileParameters(plan)?.run(ex);
      compileBody(plan).run(ex);
      return ex.value;
    };
    expect(run('dryRun=true', '{"name":"a","email":"e"}')).toEqual({ name: 'a', email: 'e', dryRun: true });
    let thrown: unknown;
    try {
      run('dryRun=maybe', '{"name":"","email":"e"}');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(rest.RequestValidationError);
    expect((thrown as rest.RequestValidationError).errors.map((e) => (e as Error).constructor.name)).toEqual(['QueryParamError', 'RequestBodyError']);
  });
});
