export type {
  ApiDescriptor,
  ExternalDocsDescriptor,
  HeaderDescriptor,
  InfoDescriptor,
  MediaTypeDescriptor,
  ParameterDescriptor,
  ParameterLocation,
  RequestBodyDescriptor,
  ResponseCookieDescriptor,
  ResponseDescriptor,
  LinkDescriptor,
  RouteDescriptor,
  SecurityRequirement,
  SecuritySchemeObject,
  ServerDescriptor,
  TagDescriptor,
} from './descriptor.js';
export { Document } from './document.js';
export { marshalJSON, marshalYAML, renderSchemas } from './marshal-schemas.js';
export type { SchemaSource } from './marshal-schemas.js';
export type {
  ComponentsObject,
  ContactObject,
  EncodingObject,
  ExtensionKey,
  ExternalDocumentationObject,
  HeaderObject,
  HttpMethodKey,
  InfoObject,
  LicenseObject,
  MediaTypeObject,
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  PathItemObject,
  PathsObject,
  ReferenceObject,
  RequestBodyObject,
  ResponseObject,
  LinkObject,
  ResponsesObject,
  SecurityRequirementObject,
  ServerObject,
  ServerVariableObject,
  SetCookieExtension,
  TagObject,
} from './model.js';
export { reasonPhrase } from './reason-phrase.js';
export { renderDocument, SCHEMA_REF_PREFIX } from './render-document.js';
export { OpenAPIRenderError } from './render-error.js';
export type { OpenAPIRenderErrorOptions, RenderProblem } from './render-error.js';
