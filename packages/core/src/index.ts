export { createSite, Site, type CreateSiteOptions, type NewUserInput } from './site.js';
export type { AnswerCacheOptions } from './answer-cache.js';
export type { FragmentCacheOptions } from './fragment-cache.js';
export { clockStartingAt, manualClock, systemClock, type Clock, type ManualClock } from './clock.js';
export { DEFAULT_SETTINGS, resolveSettings, type SiteSettings } from './settings.js';
export { consoleLogger, silentLogger, type Logger, type SiteContext } from './site-context.js';

export { ApiError, isApiError, type WireError } from './http/api-error.js';
export { coreErrors } from './http/errors.js';
export { ApiRequest } from './http/api-request.js';
export { ApiResponse, respond } from './http/api-response.js';
export { readBody, DEFAULT_BODY_LIMIT, type ReadBodyOptions } from './http/body.js';
export { toSiteRequest, groupHeaders, forEachHeader, type NodeRequestParts } from './http/adapter-kit.js';
export { fatalErrorResponse } from './http/fatal.js';
export { answerClientErrors, handleClientError } from './http/client-errors.js';
export { encodeJson } from './http/json.js';
export type { CorsOption, CorsOrigins } from './http/headers.js';
export { bodyLength, headerValue, type BodyPart, type RequestBody, type SiteRequest, type SiteResponse, type UploadedFile } from './http/request.js';

export type { ArgSchema, ArgSpec, ArgType, ArgValidator, ArgSanitizer } from './args/spec.js';
export {
  ALLMETHODS,
  CREATABLE,
  DELETABLE,
  EDITABLE,
  READABLE,
  defineNamespace,
  defineRoute,
  type EndpointDefinition,
  type Handler,
  type NamespaceDefinition,
  type OperationDoc,
  type Permission,
  type RouteDefinition,
} from './registry/types.js';
export { Registry, type CompiledRoute, type CompiledEndpoint } from './registry/registry.js';
export { buildOpenApiDocument, openApiRoute, type OpenApiExtras, type OpenApiOperationDoc } from './registry/openapi.js';

export { hasCap, canOnObject, type Principal, type OwnedObject } from './auth/principal.js';
export { ROLE_NAMES, capsOfRole, postTypeCaps, type RoleName, type PostTypeCaps } from './auth/roles.js';
export type { AuthenticateHook, AuthenticateResult, HookCredentials } from './auth/authenticate.js';
export {
  chunkApplicationPassword,
  hashApplicationPassword,
  verifyApplicationPassword,
} from './auth/application-passwords.js';

export * from './store/records.js';
export type * from './store/contact-forms.js';
export type * from './store/popups.js';
export type * from './store/content.js';
export type * from './store/media-records.js';
export type * from './store/media-repositories.js';
export type * from './store/queries.js';
export type * from './store/repositories.js';
export type * from './store/redirection.js';
/** What a repository method gives: its answer at once, or a promise of it (see util/maybe.ts). */
export type { Maybe } from './util/maybe.js';
export { StoreError, isStoreError, type StoreErrorKind } from './store/store-error.js';
export { CHANGE_SCOPES, type ChangeScope } from './store/change-scopes.js';
export {
  searchTerms,
  matchesSearch,
  boundedSearch,
  distanceKm,
  statusMatches,
  MAX_SEARCH_LENGTH,
  MAX_SEARCH_TERMS,
  type SearchTerm,
} from './store/search.js';
export { passesVisibility } from './store/visibility.js';

export {
  checkFileKey,
  FileTooLargeError,
  InvalidFileKeyError,
  localFileStorage,
  numberedKey,
  type FileData,
  type FileStorage,
  type LocalFileStorageOptions,
  type StoredFile,
  type WriteFileOptions,
} from './media/file-storage.js';

export {
  builtInNamespaces,
  calendarNamespace,
  contactFormsNamespace,
  contentNamespace,
  mediaNamespace,
  oembedNamespace,
  popupsNamespace,
  redirectionNamespace,
  seoNamespace,
  thumbnailsNamespace,
} from './namespaces/index.js';
export {
  content,
  CONTENT_NAMESPACE,
  NEWS_TYPE,
  VIDEO_TYPE,
  ARTICLE_CATEGORY_TAXONOMY,
  VIDEO_CATEGORY_TAXONOMY,
  type ContentAdmin,
  type ContentOptions,
  type ContentUpdate,
  type NewArticleInput,
  type NewVideoInput,
  type SeoMetaInput,
} from './namespaces/content/index.js';
export { seo, SEO_NAMESPACE, type SeoAdmin, type SeoSettings } from './namespaces/seo/index.js';
export {
  contactForms,
  memoryFileStorage,
  scanFormTags,
  CONTACT_FORMS_NAMESPACE,
  CONTACT_FORM_TYPE,
  type ContactFormsAdmin,
  type ContactFormsOptions,
  type BeforeSendMailEvent,
  type SpamCheckEvent,
  type FormTag,
} from './namespaces/contact-forms/index.js';
export { popups, POPUPS_NAMESPACE, POPUP_TYPE, type PopupsAdmin, type PopupsOptions, type NewPopupInput } from './namespaces/popups/index.js';
export type { MailMessage, MailAttachmentRef, OutgoingMail } from './mail/message.js';
export { storeMailTransport, type MailTransport } from './mail/transport.js';
export { smtpTransport, parseSmtpUrl, type SmtpTransportOptions } from './mail/smtp.js';
export { MediaLibrary, MediaError, ATTACHMENT_TYPE, type MediaOptions, type UploadInput, type RegenerateOptions, type ContentPostType } from './media/library.js';
export { DEFAULT_IMAGE_SIZES, BIG_IMAGE_THRESHOLD, resizeDimensions, constrainDimensions, type ImageSize, type CropAnchor } from './media/image-sizes.js';
export { ImageProcessor, ImageProcessingError, type ImageProcessorOptions } from './media/images.js';
export { OutboundClient, OutboundRequestError, type OutboundOptions, type OutboundRequest, type OutboundResponse } from './media/outbound.js';
export { sniffImageType, IMAGE_TYPES, type ImageType } from './media/sniff.js';
export { SANCTIONED_PROVIDERS, type OembedProvider } from './namespaces/oembed/providers.js';
export type { OembedOptions, OembedSettings } from './namespaces/oembed/proxy.js';
export type { EmbeddablePostType } from './namespaces/oembed/embeds.js';
export { embedPage } from './namespaces/oembed/embed-page.js';
export {
  RedirectEngine,
  REDIRECTION_CHANNEL,
  type RedirectDecision,
  type RedirectHooks,
  type RedirectRequest,
} from './namespaces/redirection/runtime/engine.js';
export { MAX_WAITING_LOG_ROWS, type RecorderBacklog } from './namespaces/redirection/runtime/recorder.js';
export { redirectRequestOf, sendDecision, watchResponse, watchNotFound, defaultErrorPage, type RedirectMiddlewareOptions } from './namespaces/redirection/runtime/node.js';
export * as calendar from './namespaces/calendar/public.js';
