import { describe, expect, it } from 'vitest';
import { templateProblem, templateShape, templateVars } from './path-template.js';

describe('path templates', () => {
  it('lists placeholders in order without repeats', () => {
    expect(templateVars('/a/{x}/b/{y}/{x}')).toEqual(['x', 'y']);
    expect(templateVars('/files/{name}.{ext}')).toEqual(['name', 'ext']);
    expect(templateVars('/')).toEqual([]);
  });

  it('checks the template syntax', () => {
    expect(templateProblem('/a/{x}')).toBeUndefined();
    expect(templateProblem('a')).toBe('must start with "/"');
    expect(templateProblem('/a/{x')).toBe('has unbalanced braces');
    expect(templateProblem('/a/{{x}}')).toBe('has unbalanced braces');
    expect(templateProblem('/a/{}')).toBe('has an empty "{}" placeholder');
  });

  it('erases placeholder names for conflict detection', () => {
    expect(templateShape('/a/{id}/b/{name}')).toBe('/a/{}/b/{}');
  });
});
