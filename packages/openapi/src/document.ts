import type {
  ComponentsObject,
  ExternalDocumentationObject,
  InfoObject,
  OpenAPIObject,
  PathItemObject,
  PathsObject,
  SecurityRequirementObject,
  ServerObject,
  TagObject,
} from './model.js';
import { toJSONText, toYAMLText } from './serialize.js';

/**
 * An OpenAPI 3.1 document. It holds the fields of the OpenAPI Object as plain,
 * mutable properties — edit them before marshalling if you need to — and serialises them with
 * a fixed key order (`openapi`, `info`, `jsonSchemaDialect`, `servers`, `security`, `tags`,
 * `paths`, `webhooks`, `components`, `externalDocs`), so YAML and JSON diffs stay clean.
 * Absent optional fields are left out.
 */
export class Document implements OpenAPIObject {
  /** The OpenAPI version, `'3.1.0'` for rendered documents. */
  openapi: string;
  /** Title, description and the API's own version. */
  info: InfoObject;
  /** The JSON Schema dialect of the document's schemas, when not the OpenAPI 3.1 default. */
  jsonSchemaDialect?: string;
  /** The named servers (`api.addServer(name, { url })` → `{ url, description: name }`). */
  servers?: ServerObject[];
  /** Global security requirements (`api.addGlobalSecurity`). */
  security?: SecurityRequirementObject[];
  /** The tags operations use, in first-use order. */
  tags?: TagObject[];
  /** Path template → path item; `{}` when no route was declared. */
  paths: PathsObject;
  /** Webhooks; the renderer never sets them. */
  webhooks?: Record<string, PathItemObject>;
  /** Named schemas and security schemes; absent when both are empty. */
  components?: ComponentsObject;
  /** Further documentation; the renderer never sets it. */
  externalDocs?: ExternalDocumentationObject;

  /** Wraps an OpenAPI Object (used by `renderDocument`; fields are taken as is, not copied). */
  constructor(object: OpenAPIObject) {
    this.openapi = object.openapi;
    this.info = object.info;
    if (object.jsonSchemaDialect !== undefined) this.jsonSchemaDialect = object.jsonSchemaDialect;
    if (object.servers !== undefined) this.servers = object.servers;
    if (object.security !== undefined) this.security = object.security;
    if (object.tags !== undefined) this.tags = object.tags;
    this.paths = object.paths;
    if (object.webhooks !== undefined) this.webhooks = object.webhooks;
    if (object.components !== undefined) this.components = object.components;
    if (object.externalDocs !== undefined) this.externalDocs = object.externalDocs;
  }

  /**
   * The document as a plain OpenAPI Object with its keys in the fixed order; `undefined` fields
   * are left out. Nested objects are shared with the document, not copied.
   * `JSON.stringify(doc)` calls it.
   */
  toJSON(): OpenAPIObject {
    const o: Partial<OpenAPIObject> = { openapi: this.openapi, info: this.info };
    if (this.jsonSchemaDialect !== undefined) o.jsonSchemaDialect = this.jsonSchemaDialect;
    if (this.servers !== undefined) o.servers = this.servers;
    if (this.security !== undefined) o.security = this.security;
    if (this.tags !== undefined) o.tags = this.tags;
    o.paths = this.paths;
    if (this.webhooks !== undefined) o.webhooks = this.webhooks;
    if (this.components !== undefined) o.components = this.components;
    if (this.externalDocs !== undefined) o.externalDocs = this.externalDocs;
    return o as OpenAPIObject;
  }

  /**
   * The document as YAML: block style, no line folding, no
   * anchors or aliases, and strings that read as numbers or booleans (`'200'`, `'1.0'`) quoted,
   * so `YAML.parse` of the text deep-equals `JSON.parse(doc.marshalJSON())`. Ends with a newline.
   */
  marshalYAML(): string {
    return toYAMLText(this.toJSON());
  }

  /** The document as JSON, indented by 2 spaces, with a trailing newline. */
  marshalJSON(): string {
    return toJSONText(this.toJSON());
  }
}
