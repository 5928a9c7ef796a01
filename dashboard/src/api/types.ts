// The API's shapes live in the contract, shared with the daemon and the CLI; this file only
// names them for the dashboard's imports.
export type * from '../../../contract/index.js';
