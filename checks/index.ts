// The check-type catalog: shared by the REST API, the importers and the MCP tools.
export { listCheckTypes, sampleCheck, type CheckTypeSummary } from './catalog.js';
export type { CheckCommon, CheckDefinition, CheckInput } from './check.js';
export {
  DEFAULT_THRESHOLDS,
  INTERVAL_BOUNDS,
  MAX_LABELS,
  TEXT_BOUNDS,
  type Thresholds,
  type ThresholdsInput,
} from './check-fields.js';
export type { CheckSample, CheckType } from './check-type.js';
export { COMPARISON_OPERATORS } from './fields.js';
export { holds, type OrderingOperator } from './ordering.js';
export { joinPath, type ValidationIssue } from './issues.js';
export { checkDefinitionJsonSchema, configJsonSchema, type JsonSchema } from './json-schema.js';
export {
  checkTypeNames,
  checkTypes,
  getCheckType,
  isCheckTypeName,
  type AnyCheckType,
  type CheckConfig,
  type CheckConfigInput,
  type CheckTypeName,
} from './registry.js';
export { FALLBACK_SLUG, SLUG_PATTERN, slugify } from './slug.js';
export type { TargetInfo, TargetKind } from './targets.js';
export { DNS_ANSWER_OPERATORS, DNS_RCODES, DNS_RECORD_TYPES } from './types/dns.js';
export { HTTP_METHODS } from './types/http.js';
export { validateCheck, type CheckValidation } from './validate-check.js';
export { ValidationMemo } from './validation-memo.js';
export { mergePatch, validateCheckPatch } from './validate-patch.js';
export {
  SECRET_NAME_PATTERN,
  checkSecretName,
  containsReference,
  referencedSecrets,
  secretNameFrom,
  secretReference,
} from './secret-references.js';
export { referenceMatcher } from './secret-references.js';
export { misplacedSecretReferences } from './reference-placement.js';
