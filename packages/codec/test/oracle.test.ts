import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SchemaGenerator, type Codec } from '../src/index.js';
import { compile, standalone } from './support/ajv.js';
import { catalogue, recursive, scalars } from './support/catalogue.js';
import { decodes, type Entry } from './support/entry.js';

/** The two ways a schema is rendered: standalone (`codec.schema`) and for OpenAPI (named → `$ref`). */
const renderings = {
  standalone: (c: Codec<unknown>) => c.schema,
  openapi: (c: Codec<unknown>) => {
    const gen = new SchemaGenerator({ refPrefix: '#/components/schemas/', refNamed: true });
    const s = gen.schema(c);
    return standalone(s, gen.definitions);
  },
};

/**
 * True when a JSON object in `wire` has an own `valueOf` or `toString` key. Ajv compares values
 * (`const`, `enum`, `uniqueItems`) with fast-deep-equal, which calls such keys as methods and
 * throws: on these inputs the oracle has no answer (an Ajv bug, not a codec one).
 */
function breaksAjvEquality(wire: unknown): boolean {
  if (Array.isArray(wire)) return wire.some(breaksAjvEquality);
  if (typeof wire !== 'object' || wire === null) return false;
  const o = wire as Record<string, unknown>;
  return Object.hasOwn(o, 'valueOf') || Object.hasOwn(o, 'toString') || Object.values(o).some(breaksAjvEquality);
}

/** How many inputs were accepted and rejected: an oracle that only ever sees one side proves nothing. */
interface Tally {
  accepted: number;
  rejected: number;
}

/** Ajv accepts `wire` exactly when the codec decodes it. */
function agree(validate: (v: unknown) => boolean, e: Entry, wire: unknown, tally: Tally): void {
  if (breaksAjvEquality(wire)) return;
  const byDecoder = decodes(e.codec, wire);
  if (byDecoder) tally.accepted++;
  else tally.rejected++;
  const bySchema = validate(wire);
  if (byDecoder !== bySchema) {
    expect.fail(`${e.name}: decoder ${byDecoder ? 'accepts' : 'rejects'} but schema ${bySchema ? 'accepts' : 'rejects'} ${JSON.stringify(wire)}`);
  }
}

describe('oracle: Ajv (2020-12, ajv-formats) accepts exactly what decode accepts', () => {
  for (const [how, render] of Object.entries(renderings)) {
    describe(how, () => {
      for (const e of [...scalars, ...recursive]) {
        // Entries whose decoder checks what JSON Schema cannot say are excluded; `exact` says why.
        it.skipIf(e.exact !== true)(e.name, () => {
          const validate = compile(render(e.codec));
          const tally = { accepted: 0, rejected: 0 };
          fc.assert(fc.property(e.wire, (wire) => agree(validate, e, wire, tally)), { numRuns: Number(process.env.FC_RUNS ?? 300) });
          expect(tally.accepted).toBeGreaterThan(0);
          // any() accepts every JSON value: nothing to reject.
          if (e.codec.kind !== 'any') expect(tally.rejected).toBeGreaterThan(0);
        });
      }

      it('random composites over the whole catalogue', { timeout: 120_000 }, () => {
        const exact = catalogue(false).filter((e) => e.exact === true);
        const tally = { accepted: 0, rejected: 0 };
        fc.assert(
          fc.property(exact.chain((e) => fc.tuple(fc.constant(e), fc.array(e.wire, { minLength: 8, maxLength: 8 }))), ([e, wires]) => {
            const validate = compile(render(e.codec));
            for (const wire of wires) agree(validate, e, wire, tally);
          }),
          { numRuns: Number(process.env.FC_RUNS ?? 250) },
        );
        const total = tally.accepted + tally.rejected;
        expect(tally.accepted / total).toBeGreaterThan(0.1);
        expect(tally.rejected / total).toBeGreaterThan(0.1);
      });
    });
  }
});
