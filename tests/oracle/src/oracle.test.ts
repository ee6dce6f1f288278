import { describe, expect, it } from 'vitest';
import { compile } from './index.js';

/** The oracle itself is tested at the edges of each format it defines. */
describe('the oracle', () => {
  const cases: [schema: object, accepted: unknown[], rejected: unknown[]][] = [
    [{ type: 'integer', format: 'double-int' }, [0, -9007199254740991, 9007199254740991], [9007199254740992, -9007199254740992, 2 ** 60, 1.5]],
    [{ type: 'integer', format: 'int8' }, [-128, 127], [-129, 128]],
    [{ type: 'integer', format: 'int16' }, [-32768, 32767], [-32769, 32768]],
    [{ type: 'integer', format: 'int32' }, [-2147483648, 2147483647], [-2147483649, 2147483648]],
    [{ type: 'integer', format: 'int64' }, [-(2 ** 63), 2 ** 62], [2 ** 63, -(2 ** 64)]],
    [{ type: 'integer', format: 'uint8' }, [0, 255], [-1, 256]],
    [{ type: 'integer', format: 'uint16' }, [0, 65535], [-1, 65536]],
    [{ type: 'integer', format: 'uint32' }, [0, 4294967295], [-1, 4294967296]],
    [
      { type: 'string', format: 'uuid' },
      ['123e4567-e89b-12d3-a456-426614174000', '123E4567-E89B-12D3-A456-426614174000'],
      ['urn:uuid:123e4567-e89b-12d3-a456-426614174000', '123e4567e89b12d3a456426614174000', '{123e4567-e89b-12d3-a456-426614174000}'],
    ],
    [
      { type: 'string', format: 'date-time' },
      ['2024-02-29T12:00:00Z', '2024-02-29t12:00:00.123z', '2024-01-01T00:00:00+02:00', '2016-12-31T23:59:60Z'],
      ['2024-02-29 12:00:00Z', '1900-01-01T24:59:00+01:00', '2024-01-01T00:00:00+24:00', '2023-02-29T12:00:00Z', '2024-01-01T00:00:00+02', '2024-01-01T00:00:00+0200', '2024-01-01T12:00:60Z', '2024-01-01T12:00:00'],
    ],
    [
      { type: 'string', format: 'time' },
      ['12:00:00Z', '08:30:00.5+02:00', '23:59:60Z'],
      ['12:00:00', '12:00:00+02', '24:00:00Z', '12:00:60Z'],
    ],
  ];
  for (const [schema, accepted, rejected] of cases) {
    it(JSON.stringify(schema), () => {
      const v = compile(schema);
      expect(accepted.filter((x) => !v(x))).toEqual([]);
      expect(rejected.filter((x) => v(x))).toEqual([]);
    });
  }

  it('is strict: an unknown format is an error', () => {
    expect(() => compile({ type: 'string', format: 'no-such-format' })).toThrow(/unknown format/);
  });
});
