// The API contract: what daemon, CLI and dashboard agree on. It imports nothing from any of them.
export * from './access.js';
export * from './audit-kinds.js';
export * from './enterprise-sign-in.js';
export type * from './events.js';
export * from './import-sources.js';
export * from './import-warnings.js';
export type * from './maintenance-windows.js';
export * from './notification-channels.js';
export type * from './request-bodies.js';
export type * from './response-bodies.js';
export type * from './responses.js';
export * from './states.js';
export * from './status-pages.js';
