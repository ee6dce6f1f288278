import { describe, expect, it } from 'vitest';
import { reasonPhrase } from './index.js';

describe('reasonPhrase', () => {
  it('gives RFC 9110 reason phrases, class names for ranges, and fallbacks', () => {
    expect(reasonPhrase(200)).toBe('OK');
    expect(reasonPhrase('201')).toBe('Created');
    expect(reasonPhrase('413')).toBe('Content Too Large');
    expect(reasonPhrase('422')).toBe('Unprocessable Content');
    expect(reasonPhrase('2XX')).toBe('Successful');
    expect(reasonPhrase('4XX')).toBe('Client Error');
    expect(reasonPhrase('default')).toBe('Default response');
    expect(reasonPhrase('299')).toBe('Status 299');
  });
});
