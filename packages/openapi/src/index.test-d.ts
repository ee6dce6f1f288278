import * as codec from '@lib/codec';
import type { JsonSchema } from '@lib/codec';
import { describe, expectTypeOf, it } from 'vitest';
import * as openapi from './index.js';

describe('public types', () => {
  it('renderDocument returns a Document that is an OpenAPIObject', () => {
    expectTypeOf(openapi.renderDocument).parameter(0).toEqualTypeOf<openapi.ApiDescriptor>();
    expectTypeOf(openapi.renderDocument).returns.toEqualTypeOf<openapi.Document>();
    expectTypeOf<openapi.Document>().toExtend<openapi.OpenAPIObject>();
    expectTypeOf<openapi.Document['marshalYAML']>().returns.toBeString();
    expectTypeOf<openapi.Document['marshalJSON']>().returns.toBeString();
    expectTypeOf<openapi.Document['toJSON']>().returns.toEqualTypeOf<openapi.OpenAPIObject>();
  });

  it('marshalYAML takes JSON Schemas and codecs', () => {
    const schemas: Record<string, JsonSchema> = { A: { type: 'string' } };
    expectTypeOf(openapi.marshalYAML(schemas)).toBeString();
    expectTypeOf(openapi.marshalYAML({ B: codec.int(), C: { type: 'null' } })).toBeString();
    expectTypeOf(openapi.marshalJSON({ B: codec.int() })).toBeString();
    expectTypeOf(openapi.renderSchemas({})).toEqualTypeOf<Record<string, JsonSchema>>();
    // @ts-expect-error: a number is neither a schema nor a codec
    openapi.marshalYAML({ D: 1 });
  });

  it('OpenAPIRenderError carries typed fields', () => {
    expectTypeOf<openapi.OpenAPIRenderError['problem']>().toEqualTypeOf<openapi.RenderProblem>();
    expectTypeOf<openapi.OpenAPIRenderError['method']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<openapi.OpenAPIRenderError>().toExtend<Error>();
  });

  it('schemas in the model are JSON Schemas of @lib/codec', () => {
    expectTypeOf<NonNullable<openapi.MediaTypeObject['schema']>>().toEqualTypeOf<JsonSchema>();
    expectTypeOf<NonNullable<openapi.ParameterObject['schema']>>().toEqualTypeOf<JsonSchema>();
    expectTypeOf<NonNullable<openapi.ComponentsObject['schemas']>>().toEqualTypeOf<Record<string, JsonSchema>>();
  });
});
