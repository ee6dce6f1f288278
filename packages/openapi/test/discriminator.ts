/**
 * Checks OpenAPI discriminators the way code generators read them: every schema a
 * `discriminator.mapping` names is the type generated for that tag value (openapi-typescript adds
 * a required discriminator property to it), so it must itself require the property, with that
 * value (OpenAPI 3.1 §4.8.25). A mapping that names a schema also sent without the tag gives
 * clients a wrong type for that schema.
 */
export function discriminatorProblems(doc: Record<string, unknown>): string[] {
  const schemas = ((doc['components'] as Record<string, unknown> | undefined)?.['schemas'] ?? {}) as Record<string, Record<string, unknown>>;
  const resolve = (s: Record<string, unknown>): Record<string, unknown> | undefined => {
    const ref = s['$ref'];
    if (typeof ref !== 'string') return s;
    return schemas[decodeURIComponent(ref.replace('#/components/schemas/', ''))];
  };
  const pins = (s: Record<string, unknown> | undefined, prop: string, value: string, depth = 0): boolean => {
    if (s === undefined || depth > 8) return false;
    const r = resolve(s);
    if (r === undefined) return false;
    const props = r['properties'] as Record<string, { const?: unknown }> | undefined;
    if (Array.isArray(r['required']) && (r['required'] as unknown[]).includes(prop) && props?.[prop]?.const === value) return true;
    return Array.isArray(r['allOf']) && (r['allOf'] as Record<string, unknown>[]).some((m) => pins(m, prop, value, depth + 1));
  };
  const problems: string[] = [];
  const visit = (node: unknown, path: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${path}/${i}`));
    if (typeof node !== 'object' || node === null) return;
    const o = node as Record<string, unknown>;
    const d = o['discriminator'] as { propertyName: string; mapping?: Record<string, string> } | undefined;
    for (const [value, ref] of Object.entries(d?.mapping ?? {})) {
      if (!pins({ $ref: ref }, d?.propertyName ?? '', value)) problems.push(`${path}: mapping ${value} → ${ref} does not require ${d?.propertyName ?? ''}: ${JSON.stringify(value)}`);
    }
    for (const [k, v] of Object.entries(o)) visit(v, `${path}/${k}`);
  };
  visit(doc, '#');
  return problems;
}
